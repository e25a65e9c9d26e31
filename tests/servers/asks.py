# An MCP server over stdio that asks its client two things at once, to test the queue of
# the server's requests and URL-mode elicitation (which server-everything offers only to
# 2025-11-25 clients):
#
#   python3 asks.py
#
# Its tool `ask_twice` sends, before answering, an `elicitation/create` in URL mode (id
# "url-1") and one in form mode (id "form-2"), then answers the call once both came back:
# "url: RESULT; form: RESULT" (each result as compact JSON with sorted keys).
#
# Standard library only: the requests go out whatever the client declared.
import json
import sys

TOOL = {"name": "ask_twice", "description": "Asks the user for a visit and a choice.",
        "inputSchema": {"type": "object", "properties": {}}}

URL_ASK = {"mode": "url", "message": "Confirm your account on the provider's page.",
           "url": "https://example.com/verify?code=abc", "elicitationId": "visit-1"}
FORM_ASK = {"message": "Pick a hero and some fish.", "requestedSchema": {
    "type": "object", "required": ["hero"], "properties": {
        "hero": {"type": "string", "title": "Hero",
                 "oneOf": [{"const": "h1", "title": "Superman"}, {"const": "h2", "title": "Wonder Woman"}]},
        "fish": {"type": "array", "title": "Fish", "items": {"type": "string", "enum": ["tuna", "trout"]},
                 "default": ["tuna"]}}}}


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def compact(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def main():
    pending_call = None
    answers = {}
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        method, mid = msg.get("method"), msg.get("id")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": mid, "result": {
                "protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                "serverInfo": {"name": "asks", "version": "1.0.0"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [TOOL]}})
        elif method == "tools/call":
            pending_call, answers = mid, {}
            send({"jsonrpc": "2.0", "id": "url-1", "method": "elicitation/create", "params": URL_ASK})
            send({"jsonrpc": "2.0", "id": "form-2", "method": "elicitation/create", "params": FORM_ASK})
        elif method is None and mid in ("url-1", "form-2"):
            answers[mid] = msg.get("result", msg.get("error"))
            if len(answers) == 2 and pending_call is not None:
                text = f"url: {compact(answers['url-1'])}; form: {compact(answers['form-2'])}"
                send({"jsonrpc": "2.0", "id": pending_call,
                      "result": {"content": [{"type": "text", "text": text}]}})
                pending_call = None
        elif mid is not None and method is not None:
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": f"no {method} here"}})


main()
