#!/usr/bin/env python3
"""A Bearer-token front for a plain registry, for the end-to-end tests (Python stdlib only).

    token_server.py --port P --upstream http://127.0.0.1:U [--user U --password W] [--lifetime S]
                    [--log FILE]

GET /token?service=...&scope=... issues a token (basic credentials required when --user is set).
Every /v2/ request must carry `Authorization: Bearer <issued token>`; otherwise the answer is 401
with `WWW-Authenticate: Bearer realm="...",service="...",scope="repository:NAME:pull"`. Valid
requests are forwarded to the upstream registry. Exits on its own after --lifetime seconds.
"""
import argparse
import base64
import http.client
import json
import os
import re
import secrets
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SERVICE = "envlock-test-registry"
TOKENS = set()
LOCK = threading.Lock()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--upstream", required=True)
    ap.add_argument("--user")
    ap.add_argument("--password")
    ap.add_argument("--lifetime", type=float, default=600)
    ap.add_argument("--log")
    args = ap.parse_args()
    upstream = urllib.parse.urlparse(args.upstream)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *a):
            if args.log:
                with LOCK, open(args.log, "a") as f:
                    f.write("%s %s auth=%s\n" % (self.command, self.path,
                                                 self.headers.get("Authorization", "none").split(" ")[0]))

        def reply(self, status, body=b"", headers=()):
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def do_token(self):
            if args.user:
                want = "Basic " + base64.b64encode(f"{args.user}:{args.password}".encode()).decode()
                if self.headers.get("Authorization") != want:
                    self.reply(401, b'{"errors":[{"code":"UNAUTHORIZED"}]}',
                               [("WWW-Authenticate", 'Basic realm="token"')])
                    return
            token = "tok-" + secrets.token_hex(16)
            with LOCK:
                TOKENS.add(token)
                if args.log:
                    with open(args.log, "a") as f:
                        f.write("ISSUED %s\n" % token)
            body = json.dumps({"token": token, "access_token": token, "expires_in": 300}).encode()
            self.reply(200, body, [("Content-Type", "application/json")])

        def challenge(self):
            m = re.match(r"^/v2/(.+)/(manifests|blobs|tags)/", self.path)
            realm = f"http://127.0.0.1:{args.port}/token"
            value = f'Bearer realm="{realm}",service="{SERVICE}"'
            if m:
                value += f',scope="repository:{m.group(1)}:pull"'
            self.reply(401, b'{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}',
                       [("WWW-Authenticate", value), ("Content-Type", "application/json")])

        def forward(self):
            length = int(self.headers.get("Content-Length") or 0)
            data = self.rfile.read(length) if length else None
            conn = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=30)
            headers = {k: v for k, v in self.headers.items()
                       if k.lower() not in ("authorization", "host", "connection")}
            conn.request(self.command, self.path, body=data, headers=headers)
            resp = conn.getresponse()
            body = resp.read()
            keep = [(k, v) for k, v in resp.getheaders()
                    if k.lower() not in ("content-length", "connection", "transfer-encoding")]
            self.reply(resp.status, body, keep)
            conn.close()

        def handle_any(self):
            path = urllib.parse.urlparse(self.path).path
            if path == "/token":
                self.do_token()
                return
            auth = self.headers.get("Authorization", "")
            with LOCK:
                valid = auth.startswith("Bearer ") and auth[7:] in TOKENS
            if not valid:
                self.challenge()
                return
            self.forward()

        do_GET = handle_any
        do_HEAD = handle_any
        do_PUT = handle_any
        do_POST = handle_any

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
