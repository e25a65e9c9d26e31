#!/bin/sh
# The client the official conformance suite runs for scenarios that need more than one
# command: the headless CLI (MCP_PLAYGROUND_BIN), driven by the scenario the suite names in
# MCP_CONFORMANCE_SCENARIO. The suite appends the server's URL as the last argument.
set -eu
for url in "$@"; do :; done
bin="$MCP_PLAYGROUND_BIN"
case "${MCP_CONFORMANCE_SCENARIO:-}" in
  json-schema-2020-12-preservation)
    # List the tools, then give the focal tool's inputSchema back as it was received.
    args=$("$bin" tools --json "$url" | python3 -c '
import json, sys
tools = json.load(sys.stdin)["tools"]
focal = next(t for t in tools if t["name"] == "json_schema_2020_12_tool")
print(json.dumps({"schema": focal["inputSchema"]}))
')
    exec "$bin" call json_schema_echo --args "$args" "$url"
    ;;
  sep-2322-client-request-state)
    # Each tool in its own run (the server keeps the round's state); the one question the
    # server asks (elicitation) is accepted from an answers file.
    answers=$(mktemp)
    trap 'rm -f "$answers"' EXIT
    echo '{"elicitation": [{"action": "accept", "content": {"confirmed": true}}]}' > "$answers"
    for tool in test_mrtr_echo_state test_mrtr_unrelated test_mrtr_no_state test_mrtr_no_result_type; do
      "$bin" call "$tool" --json --answers "$answers" "$url" > /dev/null
    done
    ;;
  http-standard-headers)
    "$bin" tools --json "$url" > /dev/null
    exec "$bin" call test_headers --json "$url"
    ;;
  http-custom-headers)
    # The calls the suite asks for, with its arguments exactly (a null included, which the
    # schema does not allow: --no-validate sends it anyway).
    for i in 0 1; do
      call=$(printf '%s' "$MCP_CONFORMANCE_CONTEXT" | python3 -c '
import json, sys
c = json.load(sys.stdin)["toolCalls"][int(sys.argv[1])]
print(c["name"]); print(json.dumps(c["arguments"]))' "$i")
      name=$(printf '%s\n' "$call" | sed -n 1p)
      args=$(printf '%s\n' "$call" | sed -n 2p)
      "$bin" call "$name" --no-validate --json --args "$args" "$url" > /dev/null
    done
    ;;
  http-invalid-tool-headers)
    # Every tool the client keeps is called: the ones with invalid x-mcp-header marks must
    # not be among them.
    for tool in $("$bin" tools --json "$url" | python3 -c '
import json, sys
print("\n".join(t["name"] for t in json.load(sys.stdin)["tools"]))'); do
      "$bin" call "$tool" --json --no-validate --args '{"region": "us-west1"}' "$url" > /dev/null
    done
    ;;
  auth/*)
    # One process signs in, lists and calls the tool, at the revision the suite names;
    # follow_url.sh stands in for the person approving.
    BROWSER="$(dirname "$0")/follow_url.sh"
    export BROWSER
    case "$MCP_CONFORMANCE_SCENARIO" in
      auth/pre-registration)
        client_id=$(printf '%s' "$MCP_CONFORMANCE_CONTEXT" | python3 -c 'import json, sys; print(json.load(sys.stdin)["client_id"])')
        MCP_PLAYGROUND_CLIENT_SECRET=$(printf '%s' "$MCP_CONFORMANCE_CONTEXT" | python3 -c 'import json, sys; print(json.load(sys.stdin)["client_secret"])')
        export MCP_PLAYGROUND_CLIENT_SECRET
        set -- --client-id "$client_id" "$url"
        ;;
      auth/basic-cimd)
        set -- --client-metadata-url https://conformance-test.local/client-metadata.json "$url"
        ;;
      *)
        set -- "$url"
        ;;
    esac
    exec "$bin" call test-tool --json --protocol "${MCP_CONFORMANCE_PROTOCOL_VERSION:-2025-11-25}" "$@"
    ;;
  *)
    echo "conformance_client.sh: no steps for scenario ${MCP_CONFORMANCE_SCENARIO:-(none)}" >&2
    exit 2
    ;;
esac
