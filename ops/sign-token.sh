#!/usr/bin/env bash
# Prints a JWT bearer token (RS256) for the API. Run where a demo was started (its key directory,
# ORDERS_DEMO_KEY_DIR, default ./demo-keys, holds the key it generated at its first start), it signs with
# the demo's key, which that demo accepts; elsewhere with the committed DEV/TEST key, which the dev and test
# profiles accept. A production deployment verifies with its own key. It says on stderr which key signed.
# Usage: ops/sign-token.sh <subject> [customer|staff] [ttl-seconds, default 300, at most 3600: the service
#   refuses tokens that live longer, smallrye.jwt.time-to-live]
#   curl -H "Authorization: Bearer $(ops/sign-token.sh alice)" -X POST localhost:8080/orders/token
# The issuer and audience are those the dev, test and demo profiles expect; JWT_ISSUER, JWT_AUDIENCE and
# JWT_PRIVATE_KEY (a PEM file) override them. Needs only openssl and coreutils.
set -euo pipefail

usage() {
  echo "usage: $0 <subject> [customer|staff] [ttl-seconds, 1 to 3600]" >&2
  exit 2
}

subject=${1:-}
role=${2:-customer}
ttl=${3:-300}
issuer=${JWT_ISSUER:-https://orderflow.example/dev-issuer}
audience=${JWT_AUDIENCE:-orders-api}
demo_key=${ORDERS_DEMO_KEY_DIR:-demo-keys}/jwt-private-key.pem
if [[ -n ${JWT_PRIVATE_KEY:-} ]]; then
  key=$JWT_PRIVATE_KEY
elif [[ -f $demo_key ]]; then
  key=$demo_key
else
  key=$(dirname "$0")/jwt/dev-private-key.pem
fi

# The values go into JSON unescaped, so only characters that need no escaping are accepted.
[[ $subject =~ ^[A-Za-z0-9._@-]{1,255}$ ]] || usage
[[ $role == customer || $role == staff ]] || usage
[[ $ttl =~ ^[0-9]{1,4}$ ]] && ((ttl >= 1 && ttl <= 3600)) || usage
[[ $issuer =~ ^[A-Za-z0-9._:/@-]+$ && $audience =~ ^[A-Za-z0-9._:/@-]+$ ]] || { echo "$0: unusable issuer or audience" >&2; exit 2; }

base64url() {
  base64 -w0 | tr '+/' '-_' | tr -d '='
}

now=$(date +%s)
header=$(printf '{"alg":"RS256","typ":"JWT"}' | base64url)
claims=$(printf '{"iss":"%s","aud":"%s","sub":"%s","groups":["%s"],"iat":%d,"exp":%d,"jti":"%s"}' \
  "$issuer" "$audience" "$subject" "$role" "$now" "$((now + ttl))" "$(openssl rand -hex 16)" | base64url)
signature=$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -sign "$key" -binary | base64url)
printf '%s.%s.%s\n' "$header" "$claims" "$signature"
echo "$0: signed with $key" >&2
