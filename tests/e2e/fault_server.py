#!/usr/bin/env python3
"""A registry that misbehaves on purpose, for the faults a real registry cannot produce
(Python stdlib only).

    fault_server.py --port P [--peer http://127.0.0.1:Q] [--lifetime S] [--log FILE] [--silent]

It serves one tiny single-platform OCI image (linux/amd64, one gzip layer holding etc/hello)
under any repository name; the first
path component of the repository chooses the behaviour, counted per request path:

    ok/...            no fault
    err500-N/...      HTTP 500 for the first N requests, then normal (N=0: always)
    err503-N/...      HTTP 503 likewise
    ratelimit-N/...   HTTP 429 with "Retry-After: 1" for the first N requests
    stall-N/...       sends nothing for 10 s on the first N requests (past the client's timeout)
    truncate-N/...    announces a longer Content-Length than it sends, N times (0: always)
    reset-N/...       resets the connection (TCP RST) without an answer, N times (0: always)
    layer-MODE/...    the fault MODE (truncate-N, reset-N, baddigest, endless) on the layer blob
                      only; layer-endless sends the layer's bytes, then more, without end
    baddigest/...     blobs and manifests fetched by digest come back with other bytes
    redirect/...      needs a Bearer token; blobs answer 307 to --peer /storage/<digest>
    tokenfail/...     needs a Bearer token, and the token endpoint answers 500
    endless404/...    manifests answer 404 with a body that never ends
    endless401/...    manifests answer 401 (a Basic challenge) with a body that never ends
    trickle/...       manifests come at four bytes a second (Content-Length right)
    stranger/...      needs a Bearer token; blobs answer 307 to --peer /stranger/<digest>, where
                      the peer asks for a Bearer token of its own realm (its /token?stranger=1,
                      which issues STRANGER_TOKEN)
    echo/...          needs basic credentials; with any, answers 403 with an error code that
                      echoes the Authorization header and the password in it

/storage/<digest> serves the blob (this is the peer's role) and logs whether an Authorization
header arrived. Every request is logged to --log as "METHOD PATH auth=<scheme|none>" (and
"bearer=TOKEN" for a Bearer token). With --silent the server accepts connections and never
answers (not even a TLS handshake). The server exits on its own after --lifetime seconds.
"""
import argparse
import base64
import gzip
import hashlib
import io
import json
import os
import re
import socket
import struct
import tarfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def digest(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def make_layer():
    """A deterministic gzip layer: etc/ and etc/hello (64 KiB, so that truncation and resets
    land in the middle of a body)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        folder = tarfile.TarInfo("etc")
        folder.type, folder.mode, folder.mtime = tarfile.DIRTYPE, 0o755, 0
        tar.addfile(folder)
        data = b"".join(hashlib.sha256(b"%d" % i).digest() for i in range(2048))
        hello = tarfile.TarInfo("etc/hello")
        hello.size, hello.mode, hello.mtime = len(data), 0o644, 0
        tar.addfile(hello, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), mtime=0)


LAYER = make_layer()
CONFIG = json.dumps({"architecture": "amd64", "os": "linux",
                     "rootfs": {"type": "layers",
                                "diff_ids": [digest(gzip.decompress(LAYER))]}},
                    sort_keys=True).encode()
MANIFEST = json.dumps({
    "schemaVersion": 2,
    "mediaType": "application/vnd.oci.image.manifest.v1+json",
    "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
               "digest": digest(CONFIG), "size": len(CONFIG)},
    "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip",
                "digest": digest(LAYER), "size": len(LAYER)}]}, sort_keys=True).encode()
BLOBS = {digest(CONFIG): CONFIG, digest(LAYER): LAYER}
MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json"
COUNTS = {}
LOCK = threading.Lock()
TOKEN = "fault-token-0123456789"
STRANGER_TOKEN = "stranger-token-9876543210"


def serve_silent(port):
    """Accepts connections and keeps them open without a byte."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    held = []
    while True:
        conn, _ = listener.accept()
        held.append(conn)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--peer", default="")
    ap.add_argument("--lifetime", type=float, default=300)
    ap.add_argument("--log")
    ap.add_argument("--silent", action="store_true")
    args = ap.parse_args()
    if args.silent:
        threading.Timer(args.lifetime, lambda: os._exit(0)).start()
        serve_silent(args.port)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *a):
            pass

        def record(self):
            if args.log:
                value = self.headers.get("Authorization", "none")
                scheme = value.split(" ")[0]
                bearer = " bearer=" + value.split(" ", 1)[1] if scheme == "Bearer" else ""
                with LOCK, open(args.log, "a") as f:
                    f.write("%s %s auth=%s%s t=%.3f\n" % (self.command, self.path, scheme, bearer,
                                                          time.time()))

        def reply(self, status, body=b"", headers=(), length=None):
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body) if length is None else length))
            if length is not None:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
                self.wfile.flush()

        def endless(self, status, headers=(), start=b""):
            """Answers `status` with a body that ends only when the client goes away (or the
            server's lifetime does)."""
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            chunk = b"x" * 65536
            try:
                self.wfile.write(start)
                while True:
                    self.wfile.write(chunk)
            except OSError:
                pass

        def trickle(self, body, headers=()):
            """Sends `body` at four bytes a second: each gap (0.25 s) well under the
            1 s idle timeout the tests use, so only the request deadline can end it."""
            self.send_response(200)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for i in range(len(body)):
                    self.wfile.write(body[i:i + 1])
                    self.wfile.flush()
                    time.sleep(0.25)
            except OSError:
                self.close_connection = True

        def count(self):
            with LOCK:
                COUNTS[self.path] = COUNTS.get(self.path, 0) + 1
                return COUNTS[self.path]

        def do_GET(self):
            self.record()
            path = self.path.split("?")[0]
            if path == "/token":
                if "tokenfail" in self.path:
                    self.reply(500, b"token service down")
                    return
                token = STRANGER_TOKEN if "stranger=1" in self.path else TOKEN
                self.reply(200, json.dumps({"token": token}).encode(),
                           [("Content-Type", "application/json")])
                return
            m = re.match(r"^/stranger/(sha256:[0-9a-f]{64})$", path)
            if m:
                if self.headers.get("Authorization") != "Bearer " + STRANGER_TOKEN:
                    realm = f"http://127.0.0.1:{args.port}/token?stranger=1"
                    self.reply(401, b'{"errors":[{"code":"UNAUTHORIZED"}]}',
                               [("WWW-Authenticate", f'Bearer realm="{realm}",service="stranger"')])
                    return
                self.reply(200, BLOBS.get(m.group(1), b""),
                           [("Content-Type", "application/octet-stream")])
                return
            m = re.match(r"^/storage/(sha256:[0-9a-f]{64})$", path)
            if m and m.group(1) in BLOBS:
                self.reply(200, BLOBS[m.group(1)], [("Content-Type", "application/octet-stream")])
                return
            m = re.match(r"^/v2/((?:layer-)?([a-z0-9]+)(?:-(\d+))?(?:/[a-z0-9._-]+)*)/"
                         r"(manifests|blobs)/([^/]+)$", path)
            if not m:
                self.reply(404, b'{"errors":[{"code":"NAME_UNKNOWN"}]}',
                           [("Content-Type", "application/json")])
                return
            repo, mode, n, kind, ref = m.groups()
            n = int(n or 0)
            if repo.startswith("layer-") and ref != digest(LAYER):
                mode = "ok"
            if self.fault(mode, n, repo):
                return
            if kind == "manifests" and mode == "endless404":
                self.endless(404, [("Content-Type", "application/json")],
                             b'{"errors":[{"code":"MANIFEST_UNKNOWN","message":"')
                return
            if kind == "manifests" and mode == "endless401":
                self.endless(401, [("Content-Type", "application/json"),
                                   ("WWW-Authenticate", 'Basic realm="endless"')],
                             b'{"errors":[{"code":"UNAUTHORIZED","message":"')
                return
            if kind == "manifests" and mode == "trickle":
                self.trickle(MANIFEST, [("Content-Type", MANIFEST_TYPE)])
                return
            if kind == "manifests":
                body = MANIFEST
                if ref.startswith("sha256:"):
                    if ref != digest(MANIFEST):
                        self.reply(404, b'{"errors":[{"code":"MANIFEST_UNKNOWN"}]}',
                                   [("Content-Type", "application/json")])
                        return
                    if mode == "baddigest":
                        body = MANIFEST.replace(b'"layers"', b'"layers" ')
                self.reply(200, body, [("Content-Type", MANIFEST_TYPE),
                                       ("Docker-Content-Digest", digest(MANIFEST))])
                return
            if ref not in BLOBS:
                self.reply(404, b'{"errors":[{"code":"BLOB_UNKNOWN"}]}',
                           [("Content-Type", "application/json")])
                return
            if mode == "redirect":
                self.reply(307, b"", [("Location", f"{args.peer}/storage/{ref}")])
                return
            if mode == "stranger":
                self.reply(307, b"", [("Location", f"{args.peer}/stranger/{ref}")])
                return
            if mode == "endless":
                self.endless(200, [("Content-Type", "application/octet-stream")], BLOBS[ref])
                return
            body = BLOBS[ref]
            if mode == "baddigest":
                body = body.replace(b"amd64", b"arm64") if body == CONFIG else body[:-1] + b"x"
            self.reply(200, body, [("Content-Type", "application/octet-stream")])

        def fault(self, mode, n, repo):
            """Answers the request with the fault of `mode`; True when it did."""
            if mode == "echo":
                value = self.headers.get("Authorization")
                if value is None:
                    self.reply(401, b'{"errors":[{"code":"UNAUTHORIZED"}]}',
                               [("WWW-Authenticate", 'Basic realm="echo"')])
                    return True
                password = base64.b64decode(value.split(" ", 1)[1]).decode().split(":", 1)[1]
                code = "DENIED " + value + " " + password
                self.reply(403, json.dumps({"errors": [{"code": code, "message": code}]}).encode(),
                           [("Content-Type", "application/json")])
                return True
            if mode in ("redirect", "tokenfail", "stranger"):
                if self.headers.get("Authorization") != "Bearer " + TOKEN:
                    realm = f"http://127.0.0.1:{args.port}/token"
                    if mode == "tokenfail":
                        realm += "?tokenfail=1"
                    value = (f'Bearer realm="{realm}",service="fault",'
                             f'scope="repository:{repo}:pull"')
                    self.reply(401, b'{"errors":[{"code":"UNAUTHORIZED"}]}',
                               [("WWW-Authenticate", value)])
                    return True
                return False
            if mode not in ("err500", "err503", "ratelimit", "stall", "truncate", "reset"):
                return False
            c = self.count()
            if n != 0 and c > n:
                return False
            if mode == "err500":
                self.reply(500, b"internal error")
            elif mode == "err503":
                self.reply(503, b"unavailable")
            elif mode == "ratelimit":
                self.reply(429, b'{"errors":[{"code":"TOOMANYREQUESTS"}]}',
                           [("Retry-After", "1")])
            elif mode == "stall":
                time.sleep(10)
                self.close_connection = True
            elif mode == "reset":
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           struct.pack("ii", 1, 0))
                self.close_connection = True
                self.connection.close()
            elif mode == "truncate":
                body = MANIFEST if "/manifests/" in self.path else BLOBS.get(
                    self.path.rsplit("/", 1)[-1], CONFIG)
                self.reply(200, body[: len(body) // 2],
                           [("Content-Type", MANIFEST_TYPE)], length=len(body))
            return True

        do_HEAD = do_GET

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
