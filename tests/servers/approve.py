# Stands in for a person at tests/servers/python/oauth_server.py's approval page: run as $BROWSER with the authorization URL.
"""Approve (or, with APPROVE_ACTION=deny, deny) one OAuth authorization request.

The headless CLI runs this as `$BROWSER URL`. It GETs the authorization URL,
reads the hidden `request` value of the approval page, POSTs it to `/approve`
(or `/deny`) and follows the 302 to the CLI's loopback callback, as a person
clicking the button would. When APPROVE_LOG names a file, the URL it was given
is appended to it as one line first, so a test can count approvals and read
what the authorization request carried.
"""

import html as markup
import os
import re
import sys
import urllib.parse
import urllib.request


def main() -> int:
    url = sys.argv[-1]
    log = os.environ.get("APPROVE_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(url + "\n")
    action = "deny" if os.environ.get("APPROVE_ACTION") == "deny" else "approve"
    with urllib.request.urlopen(url, timeout=30) as page:
        html = page.read().decode("utf-8", "replace")
    found = re.search(r'<input type="hidden" name="request" value="([^"]*)"', html)
    if found is None:
        print(f"approve.py: no approval request on the page at {url}", file=sys.stderr)
        return 1
    form = urllib.parse.urlencode({"request": markup.unescape(found.group(1))}).encode()
    target = urllib.parse.urljoin(url, "/" + action)
    # urllib follows the 302 (as a GET) to the redirect_uri: the CLI's callback.
    with urllib.request.urlopen(urllib.request.Request(target, data=form, method="POST"), timeout=30) as answer:
        answer.read()
    return 0


if __name__ == "__main__":
    sys.exit(main())
