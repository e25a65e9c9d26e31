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
  *)
    echo "conformance_client.sh: no steps for scenario ${MCP_CONFORMANCE_SCENARIO:-(none)}" >&2
    exit 2
    ;;
esac
