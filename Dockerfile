# apns-mock in a container: `make dist` first, then build with the tarball's folder as the context, e.g.
#   buildah bud -t apns-mock -f Dockerfile .build/dist        (or: docker build -t apns-mock -f Dockerfile .build/dist)
# Settings: flags after the image name (they replace CMD), or a config file in the /config volume:
#   docker run -p 2197:2197 -p 2198:2198 -v $PWD/mock:/config apns-mock serve --host 0.0.0.0 --admin-host 0.0.0.0 \
#     --data-dir /var/lib/apns-mock --config /config/mock.json
FROM debian:bookworm-slim
# The tarball of `make dist` (ADD unpacks it), then the runtime libraries its DEBIAN-PACKAGES names.
ADD apns-mock-*-linux-*.tar.gz /opt/
RUN apt-get update \
 && apt-get install -y --no-install-recommends $(cat /opt/apns-mock-*/DEBIAN-PACKAGES) \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s /opt/apns-mock-*/bin/apns-mock /usr/local/bin/apns-mock \
 && useradd --uid 10001 --create-home --home-dir /home/apns-mock apns-mock \
 && mkdir -p /var/lib/apns-mock /config /keys \
 && chown apns-mock /var/lib/apns-mock
USER apns-mock
WORKDIR /home/apns-mock
# The delivery store, a config file, your signing keys and certificates (read only).
VOLUME ["/var/lib/apns-mock", "/config", "/keys"]
# APNs over TLS (HTTP/2), the admin API and web inspector.
EXPOSE 2197 2198
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/2198 && printf 'GET /api/health HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q '\"status\":\"ok\"' <&3"]
ENTRYPOINT ["apns-mock"]
CMD ["serve", "--host", "0.0.0.0", "--admin-host", "0.0.0.0", "--data-dir", "/var/lib/apns-mock"]
