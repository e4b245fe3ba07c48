"""A small HTTP/2 client on the `h2` library (which we did not write) over a real socket: TLS with or without ALPN,
or cleartext prior knowledge. It records every frame event the server sends so tests can check SETTINGS, GOAWAY,
PING ACKs and stream resets as well as responses."""
import socket
import ssl
import time

import h2.config
import h2.connection
import h2.events
import h2.settings


class Response:
    def __init__(self, stream_id):
        self.stream_id = stream_id
        self.status = None
        self.headers = []
        self.body = b""
        self.data_frames = 0
        self.ended = False
        self.reset_code = None

    def header(self, name):
        for key, value in self.headers:
            if key == name:
                return value
        return None


class H2Client:
    def __init__(self, port, tls=True, alpn=True, host="127.0.0.1", server_name="localhost", ca=None, timeout=10,
                 cert=None, receive_buffer=None):
        if receive_buffer:  # a small socket receive buffer (set before connecting): a client that reads slowly
            raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
            raw.settimeout(timeout)
            raw.connect((host, port))
        else:
            raw = socket.create_connection((host, port), timeout=timeout)
        self.local_port = raw.getsockname()[1]
        self.selected_alpn = None
        if tls:
            context = ssl.create_default_context(cafile=ca) if ca else ssl._create_unverified_context()
            if alpn:
                context.set_alpn_protocols(["h2"])
            if cert:  # (certificate PEM, key PEM): certificate-based provider authentication
                context.load_cert_chain(cert[0], cert[1])
            # A TLS close without close_notify is an error (SSLEOFError), not a quiet end (`end` tells them apart).
            self.sock = context.wrap_socket(raw, server_hostname=server_name, suppress_ragged_eofs=False)
            self.selected_alpn = self.sock.selected_alpn_protocol()
        else:
            self.sock = raw
        self.timeout = timeout
        self.conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.events = []
        self.responses = {}
        self.remote_settings = {}
        self.goaway = None
        self.ping_acks = []
        self.closed = False
        # How the connection ended: "eof" (the server closed cleanly: FIN, and close_notify on TLS), or the name of
        # the error the socket raised (ConnectionResetError when the server reset it, SSLEOFError for a TLS
        # connection closed without close_notify).
        self.end = None
        self.conn.initiate_connection()
        self._flush()

    # -- sending
    def request(self, path, headers=(), body=None, method="POST", authority="api.sandbox.push.apple.com",
                use_host_header=False, split_body_into=1, end_stream=True):
        stream_id = self.conn.get_next_available_stream_id()
        pseudo = [(":method", method), (":scheme", "https"), (":path", path)]
        if use_host_header:
            all_headers = pseudo + [("host", authority)] + list(headers)
        else:
            all_headers = pseudo[:1] + [(":authority", authority)] + pseudo[1:] + list(headers)
        self.responses[stream_id] = Response(stream_id)
        no_body = body is None or len(body) == 0
        self.conn.send_headers(stream_id, all_headers, end_stream=no_body and end_stream)
        if not no_body:
            pieces = max(1, split_body_into)
            size = max(1, -(-len(body) // pieces))
            chunks = [body[i:i + size] for i in range(0, len(body), size)]
            for index, chunk in enumerate(chunks):
                self._send_data_respecting_window(stream_id, chunk, end_stream=end_stream and index == len(chunks) - 1)
        self._flush()
        return stream_id

    def _send_data_respecting_window(self, stream_id, data, end_stream):
        offset = 0
        while offset < len(data) or (offset == 0 and not data):
            window = min(self.conn.local_flow_control_window(stream_id), self.conn.max_outbound_frame_size)
            if window <= 0:
                self._flush()
                self._receive_once()
                if stream_id in self.responses and self.responses[stream_id].ended:
                    return
                continue
            chunk = data[offset:offset + window]
            offset += len(chunk)
            self.conn.send_data(stream_id, chunk, end_stream=end_stream and offset >= len(data))
            if not data:
                break
        self._flush()

    def ping(self, payload=b"apnsmock"):
        self.conn.ping(payload)
        self._flush()

    def send_priority(self, stream_id):
        self.conn.prioritize(stream_id, weight=32)
        self._flush()

    def send_raw(self, data):
        self.sock.sendall(data)

    # -- receiving
    def _flush(self):
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def _receive_once(self):
        try:
            data = self.sock.recv(65536)
            if not data:
                self.end = "eof"
        except (socket.timeout, ssl.SSLError, ConnectionResetError) as error:
            data = b""
            self.end = type(error).__name__
        if not data:
            self.closed = True
            return
        for event in self.conn.receive_data(data):
            self._handle(event)
        self._flush()

    def _handle(self, event):
        self.events.append(event)
        if isinstance(event, h2.events.RemoteSettingsChanged):
            for key, change in event.changed_settings.items():
                self.remote_settings[int(key)] = change.new_value
        elif isinstance(event, h2.events.ResponseReceived):
            response = self.responses.setdefault(event.stream_id, Response(event.stream_id))
            response.headers = [(k, v) for k, v in event.headers]
            response.status = int(response.header(":status"))
            if event.stream_ended:
                response.ended = True
        elif isinstance(event, h2.events.DataReceived):
            response = self.responses.setdefault(event.stream_id, Response(event.stream_id))
            response.body += event.data
            response.data_frames += 1
            self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            if event.stream_ended:
                response.ended = True
        elif isinstance(event, h2.events.StreamEnded):
            self.responses.setdefault(event.stream_id, Response(event.stream_id)).ended = True
        elif isinstance(event, h2.events.StreamReset):
            response = self.responses.setdefault(event.stream_id, Response(event.stream_id))
            response.reset_code = event.error_code
            response.ended = True
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.goaway = event
        elif isinstance(event, h2.events.PingAckReceived):
            self.ping_acks.append(event.ping_data)

    def wait_for(self, predicate, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while not predicate() and time.monotonic() < deadline and not self.closed:
            self._receive_once()
        return predicate()

    def response(self, stream_id, timeout=None):
        self.wait_for(lambda: self.responses[stream_id].ended, timeout)
        return self.responses[stream_id]

    def wait_settings(self, timeout=None):
        self.wait_for(lambda: bool(self.remote_settings), timeout)
        return self.remote_settings

    def close(self):
        try:
            self.conn.close_connection()
            self._flush()
        except Exception:
            pass
        self.sock.close()


def raw_frames(data):
    """Parses HTTP/2 frames from bytes: [(type, flags, stream_id, payload)]."""
    frames = []
    index = 0
    while index + 9 <= len(data):
        length = int.from_bytes(data[index:index + 3], "big")
        frames.append((data[index + 3], data[index + 4], int.from_bytes(data[index + 5:index + 9], "big") & 0x7FFFFFFF,
                       data[index + 9:index + 9 + length]))
        index += 9 + length
    return frames


def read_until_closed(sock, timeout=5):
    sock.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except (socket.timeout, ssl.SSLError, ConnectionResetError):
            break
        if not chunk:
            break
        data += chunk
    return data
