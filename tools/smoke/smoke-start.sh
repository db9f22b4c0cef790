#!/usr/bin/env bash
# Smoke run of `npm start` on embedded defaults (PGlite, no PostgreSQL/Redis): starts it on a fresh DATA_DIR,
# calls the main routes a newcomer would try, stops it with SIGTERM, then restarts to prove data survives.
set -euo pipefail
cd "$(dirname "$0")/../.."

DATA_DIR="$(mktemp -d)"
LOG="$DATA_DIR/start.log"
export DATA_DIR
unset DATABASE_URL REDIS_URL
# Ports the OS has free, one per app (tools/smoke/free-ports.cjs): a second checkout, or an `npm start` of one's own,
# on the same machine does not collide with this run. Every URL follows its port (libs/platform/src/service-ports.ts),
# so no PORT_BASE or *_URL of the shell may point the apps elsewhere.
unset PORT_BASE QUOTE_API_URL EMBED_URL WIDGET_URL PORTAL_URL DEMO_URL SIMULATED_PROCESSOR_WEBHOOK_URL METRICS_PORT
read -r QUOTE_API_PORT EMBED_API_PORT WIDGET_PORT PORTAL_PORT DISPATCHER_PORT DEMO_PORT < <(node tools/smoke/free-ports.cjs 6)
export QUOTE_API_PORT EMBED_API_PORT WIDGET_PORT PORTAL_PORT DISPATCHER_PORT DEMO_PORT
QUOTE="http://127.0.0.1:${QUOTE_API_PORT}"
EMBED="http://127.0.0.1:${EMBED_API_PORT}"
DEMO="http://127.0.0.1:${DEMO_PORT}"
WIDGET="http://127.0.0.1:${WIDGET_PORT}"
PORTAL="http://127.0.0.1:${PORTAL_PORT}"
echo "smoke: npm start on free ports: quote-api $QUOTE_API_PORT, embed-api $EMBED_API_PORT, widget $WIDGET_PORT, portal $PORTAL_PORT, dispatcher $DISPATCHER_PORT, demo $DEMO_PORT"
# Run exactly the `start` script of package.json, but as our own child (not under npm, which does not pass SIGTERM
# on to its child). The script is one process (node with tsx as a loader; `env` execs it), so SIGTERM reaches the
# launcher itself — the graceful stop we test — and no relay can cut it short on a loaded machine.
START_CMD="$(node -p 'require("./package.json").scripts.start')"
PRESTART_CMD="$(node -p 'require("./package.json").scripts.prestart')"
export PATH="$PWD/node_modules/.bin:$PATH"
pid=""

fail() { echo "SMOKE FAILED: $*"; echo "--- launcher output:"; cat "$LOG" || true; [ -n "$pid" ] && kill "$pid" 2>/dev/null; exit 1; }

start() {
  # A stale server on the port would answer for us and hide a broken start.
  if curl -fsS "$QUOTE/healthz" >/dev/null 2>&1; then fail "something already listens on $QUOTE; stop it first"; fi
  bash -c "exec $START_CMD" >"$LOG" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do
    curl -fsS "$QUOTE/readyz" >/dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || fail "launcher exited early"
    sleep 0.5
  done
  fail "not ready after 60 s"
}

stop() {
  kill -TERM "$pid"
  for _ in $(seq 1 40); do
    if ! kill -0 "$pid" 2>/dev/null; then
      code=0; wait "$pid" || code=$?
      pid=""
      [ "$code" = 0 ] || fail "launcher exited with $code after SIGTERM (want 0)"
      curl -fsS "$QUOTE/healthz" >/dev/null 2>&1 && fail "a server still answers after the launcher stopped"
      return 0
    fi
    sleep 0.25
  done
  fail "did not stop within 10 s of SIGTERM"
}

json() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const v=JSON.parse(s);console.log(eval('v'+process.argv[1]))})" "$1"; }

# npm runs "prestart" (the browser bundles) before "start"; so do we.
bash -c "$PRESTART_CMD" >"$DATA_DIR/prestart.log" 2>&1 || { cat "$DATA_DIR/prestart.log"; fail "prestart (browser bundles)"; }
start
for app in quote-api embed-api widget-iframe operator-portal webhook-dispatcher "demo operator site"; do
  grep -q "$app" "$LOG" || fail "startup banner does not list $app"
done
for url in "$WIDGET/readyz" "$PORTAL/readyz"; do curl -fsS "$url" >/dev/null || fail "$url not ready"; done
curl -fsS "$DEMO/" | grep -q "/widget.js" || fail "demo operator page does not load the widget"
curl -fsS -D - -o /dev/null "$WIDGET/widget.js" | grep -qi "cache-control: no-cache" || fail "rolling loader headers"
curl -fsS -D - -o /dev/null "$WIDGET/widget/1.0.0.js" | grep -qi "immutable" || fail "pinned loader 1.0.0"
curl -fsS "$PORTAL/" | grep -q '<div id="app">' || fail "portal web app shell"
curl -fsS "$PORTAL/api/portal/v1/openapi.json" | json '.openapi' | grep -qx '3.1.0' || fail "portal OpenAPI document"
portal_email=$(node -p "require('$DATA_DIR/demo-operator.json').portalEmail")
[ -n "$portal_email" ] && [ "$portal_email" != null ] || fail "demo-operator.json has no portal log-in"
key=$(node -p "require('$DATA_DIR/demo-operator.json').publishableKey")
embed_status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$EMBED/api/embed/quote" -H "Origin: http://localhost:${DEMO_PORT}" \
  -H "X-SVC-Publishable-Key: $key" -H 'Content-Type: application/json' \
  -d '{"destination":"arctic","tripCost":9000,"travelers":1,"residence":"GB","email":"smoke@example.com"}')
[ "$embed_status" = 200 ] || fail "embed quote with the demo key gave $embed_status, want 200"

curl -fsS "$QUOTE/api/v1/destinations" | json '.destinations.length' | grep -qx 5 || fail "destinations"
curl -fsS "$QUOTE/api/v1/products?destination=antarctica" | json '.plansCount' | grep -qE '^[1-9]' || fail "products"
curl -fsS "$QUOTE/api/v1/openapi.json" | json '.info.version' | grep -qx '1.0.0' || fail "openapi"

year=$(( $(date -u +%Y) + 1 ))
quote=$(curl -fsS -X POST "$QUOTE/api/v1/quotes" -H 'Content-Type: application/json' \
  -d "{\"destination\":\"Antarctica\",\"startDate\":\"$year-01-10\",\"durationDays\":14,\"tripCost\":24000,\"travelers\":2,\"travelerAges\":[45,72],\"residence\":\"US\",\"state\":\"CA\"}") || fail "quote"
echo "$quote" | json '.plans[0].isRecommended' | grep -qx true || fail "recommended plan first"
quote_id=$(echo "$quote" | json '.quoteId')
session_id=$(echo "$quote" | json '.sessionId')
plan_id=$(echo "$quote" | json '.plans[0].planId')

curl -fsS -X POST "$QUOTE/api/v1/coverage-gap" -H 'Content-Type: application/json' \
  -d '{"destination":"antarctica","creditCardName":"Chase Sapphire Reserve","tripCost":24000}' | json '.gaps.length' | grep -qE '^[0-9]' || fail "coverage gap"

status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$QUOTE/api/v1/quotes" -H 'Content-Type: application/json' -d '{}')
[ "$status" = 400 ] || fail "empty quote body gave $status, want 400"

checkout=$(curl -fsS -X POST "$QUOTE/api/v1/checkout" -H 'Content-Type: application/json' \
  -d "{\"quoteId\":\"$quote_id\",\"planId\":\"$plan_id\",\"sessionId\":\"$session_id\",\"agentSummary\":\"smoke test\"}") || fail "checkout"
url=$(echo "$checkout" | json '.checkoutUrl')
curl -fsS "$url" | grep -q "smoke test" || fail "checkout page"

# ACP with the demo agent key: create (trip + plan + buyer) → complete with a test Shared Payment Token → the order's
# certificate link opens a PDF, and the policy look-up answers with the token from that link.
agent_key=$(node -p "require('$DATA_DIR/demo-agent-key.json').key")
grep -q "$agent_key" "$LOG" || fail "startup banner does not print the demo agent key"
acp() { curl -fsS -X POST "$QUOTE/acp/v1$1" -H "Authorization: Bearer $agent_key" -H 'API-Version: 2026-04-17' \
  -H "Idempotency-Key: smoke-$RANDOM-$RANDOM" -H 'Content-Type: application/json' -d "$2"; }
acp_trip="{\"destination\":\"Antarctica\",\"startDate\":\"$year-01-10\",\"durationDays\":14,\"tripCost\":24000,\"travelers\":2,\"travelerAges\":[45,52],\"residence\":\"GB\"}"
session=$(acp /checkout_sessions "{\"line_items\":[{\"id\":\"$plan_id\"}],\"currency\":\"usd\",\"capabilities\":{},\"metadata\":{\"trip\":$acp_trip},\"buyer\":{\"email\":\"smoke@example.com\"}}") || fail "ACP create"
echo "$session" | json '.status' | grep -qx ready_for_payment || fail "ACP session not ready: $session"
acp_id=$(echo "$session" | json '.id')
done_session=$(acp "/checkout_sessions/$acp_id/complete" '{"payment_data":{"handler_id":"stripe_spt","instrument":{"type":"card","credential":{"type":"spt","token":"spt_test_success_smoke"}}}}') || fail "ACP complete"
echo "$done_session" | json '.status' | grep -qx completed || fail "ACP session not completed: $done_session"
certificate=$(echo "$done_session" | json '.order.permalink_url')
# To a file, not through `head` (which closes the pipe after 5 bytes: curl then fails writing a larger PDF).
curl -fsS -o "$DATA_DIR/certificate.pdf" "$certificate" || fail "the ACP order's certificate link does not answer"
[ "$(head -c 5 "$DATA_DIR/certificate.pdf")" = '%PDF-' ] || fail "the ACP order's certificate link does not open a PDF"
policy_number=$(echo "$done_session" | json '.order.order_number')
policy_token=$(node -p "new URL(process.argv[1]).searchParams.get('access_token')" "$certificate")
curl -fsS "$QUOTE/api/v1/policies/$policy_number" -H "Authorization: Bearer $policy_token" | json '.policyNumber' | grep -qx "$policy_number" || fail "policy look-up"

stop
start
curl -fsS -X POST "$QUOTE/api/v1/checkout" -H 'Content-Type: application/json' \
  -d "{\"quoteId\":\"$quote_id\",\"planId\":\"$plan_id\",\"sessionId\":\"$session_id\"}" >/dev/null || fail "quote did not survive a restart"
stop

rm -rf "$DATA_DIR"
echo "smoke: npm start OK (every app up incl. widget and portal, loader channels, portal shell + OpenAPI, quote-api routes, embed quote with the demo key, checkout page, an ACP checkout with the demo agent key whose certificate PDF opens and whose policy looks up, graceful stop with exit 0, data kept across restart)"
