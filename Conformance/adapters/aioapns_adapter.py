"""Adapter for aioapns (LIB-aioapns): one APNs client for the whole run, pointed at the mock the way its tests do."""
import asyncio
import json
import ssl

import aioapns.connection as connection
from aioapns import APNs, NotificationRequest, PushType

import adapterlib as lib

connection.APNsDevelopmentClientProtocol.APNS_SERVER = lib.HOST
connection.APNsTLSClientProtocol.APNS_PORT = lib.PORT


async def main():
    with open(lib.KEY_FILE) as key:
        client = APNs(key=key.read(), key_id=lib.KEY_ID, team_id=lib.TEAM_ID, topic=lib.BUNDLE_ID, use_sandbox=True,
                      ssl_context=ssl.create_default_context(cafile=lib.CA_FILE))
    dead = set()
    for push in lib.pushes():
        if push["deviceToken"] in dead:
            continue
        request = NotificationRequest(device_token=push["deviceToken"], message=json.loads(push["payload"]),
                                      push_type=PushType(push["pushType"]), apns_topic=push["topic"],
                                      priority=push.get("priority"))
        try:
            response = await asyncio.wait_for(client.send_notification(request), timeout=30)
            outcome = None if response.is_successful else f"{response.status} {response.description}"
        except Exception as error:
            outcome = f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"
        print(f"aioapns: {push['deviceToken'][:8]}… {outcome or 'accepted'}", flush=True)
        if outcome and any(gone in outcome for gone in lib.GONE):
            dead.add(push["deviceToken"])
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
