#!/usr/bin/env bash
# Regenerates the TEST-ONLY credentials in this folder with the openssl command line.
# Nothing here is secret or trusted by anyone but the developer who chooses to trust dev-ca.pem.
#   dev-ca.pem / dev-ca.key         a development CA ("apns-mock TEST-ONLY CA"), valid 10 years
#   server.pem / server.key         leaf for localhost, 127.0.0.1, ::1 and the APNs host names, signed by the CA
#   AuthKey_ABC123DEFG.p8           a sample ES256 provider-token signing key (Key ID ABC123DEFG, team TEAM123456)
#   AuthKey_ABC123DEFG.pub.pem      its public key
set -euo pipefail
cd "$(dirname "$0")"
days=3650

openssl ecparam -name prime256v1 -genkey -noout -out dev-ca.key.tmp
openssl pkcs8 -topk8 -nocrypt -in dev-ca.key.tmp -out dev-ca.key && rm dev-ca.key.tmp
openssl req -x509 -new -key dev-ca.key -sha256 -days "$days" -out dev-ca.pem \
  -subj "/O=apns-mock TEST-ONLY/CN=apns-mock TEST-ONLY CA (do not trust outside development)" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"

openssl ecparam -name prime256v1 -genkey -noout -out server.key.tmp
openssl pkcs8 -topk8 -nocrypt -in server.key.tmp -out server.key && rm server.key.tmp
openssl req -new -key server.key -out server.csr -subj "/O=apns-mock TEST-ONLY/CN=localhost"
cat > server.ext <<EXT
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1,DNS:api.push.apple.com,DNS:api.sandbox.push.apple.com,DNS:api.development.push.apple.com,DNS:api-broadcast.push.apple.com,DNS:api-broadcast.sandbox.push.apple.com
EXT
openssl x509 -req -in server.csr -CA dev-ca.pem -CAkey dev-ca.key -CAcreateserial -days "$days" -sha256 \
  -extfile server.ext -out server.pem
rm -f server.csr server.ext dev-ca.srl

openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out AuthKey_ABC123DEFG.p8
openssl pkey -in AuthKey_ABC123DEFG.p8 -pubout -out AuthKey_ABC123DEFG.pub.pem
echo "regenerated TEST-ONLY credentials in $(pwd)"
