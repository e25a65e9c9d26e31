#!/bin/sh
# Stands in for a person approving an OAuth sign-in: the headless CLI runs this as $BROWSER
# with the authorization URL; it follows the URL and its redirects, to the CLI's callback.
exec python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=30).read()' "$1"
