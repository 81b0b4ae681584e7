#!/usr/bin/env python3
# A small in-memory registry with the OCI distribution spec 1.1 referrers API, for the attest
# suite's API path (Debian's docker-registry 2.8 has no such API): manifests (GET, HEAD, PUT;
# answering OCI-Subject for a manifest with a subject), blobs (HEAD, GET, POST + PUT uploads) and
# GET /v2/NAME/referrers/DIGEST[?artifactType=T], two descriptors a page with Link: rel="next".
# Every request is logged to --log as "METHOD PATH STATUS".
# Faults a real registry would not serve, by repository: faults/pages answers page after page
# (each one descriptor, the same one, with Link: rel="next" for ever); faults/entries one page of
# 1,500 descriptors; faults/bytes pages of about 3 MB each; a repository under dups/ lists each of
# its referrers three times, across pages.
import argparse, hashlib, http.server, json, re, threading, time, urllib.parse, uuid

INDEX = "application/vnd.oci.image.index.v1+json"
PAGE = 2

class Store:
    def __init__(self):
        self.lock = threading.Lock()
        self.blobs, self.manifests, self.uploads = {}, {}, set()

store = Store()

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=None, head=False):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)
        with open(self.server.log, "a") as f:
            f.write(f"{self.command} {self.path} {status}\n")

    def body(self):
        n = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(n) if n else b""

    def route(self):
        path = urllib.parse.urlparse(self.path)
        m = re.fullmatch(r"/v2/(.+)/(manifests|blobs|referrers)/(.+)", path.path)
        u = re.fullmatch(r"/v2/(.+)/blobs/uploads/(.*)", path.path)
        return path, m, u

    def do_GET(self, head=False):
        path, m, _ = self.route()
        if path.path == "/v2/":
            return self.reply(200, b"{}", head=head)
        if not m:
            return self.reply(404, head=head)
        name, kind, ref = m.groups()
        with store.lock:
            if kind == "blobs":
                data = store.blobs.get((name, ref))
                return self.reply(200, data, head=head) if data is not None else self.reply(404, head=head)
            if kind == "manifests":
                found = store.manifests.get((name, ref))
                if found is None:
                    return self.reply(404, b'{"errors":[{"code":"MANIFEST_UNKNOWN"}]}', head=head)
                data, mt = found
                digest = "sha256:" + hashlib.sha256(data).hexdigest()
                return self.reply(200, data, {"Content-Type": mt, "Docker-Content-Digest": digest,
                                              "ETag": f'"{digest}"'}, head=head)
            query = urllib.parse.parse_qs(path.query)
            wanted = query.get("artifactType", [None])[0]
            start = int(query.get("start", ["0"])[0])
            if name.startswith("faults/"):
                return self.fault(name, ref, path.path, start, head)
            found = []
            for (n, r), (data, mt) in sorted(store.manifests.items()):
                if n != name or not r.startswith("sha256:"):
                    continue
                doc = json.loads(data)
                if doc.get("subject", {}).get("digest") != ref:
                    continue
                atype = doc.get("artifactType") or doc.get("config", {}).get("mediaType")
                if wanted and atype != wanted:
                    continue
                desc = {"mediaType": doc.get("mediaType", mt), "digest": r, "size": len(data),
                        "artifactType": atype}
                if doc.get("annotations"):
                    desc["annotations"] = doc["annotations"]
                found.append(desc)
        if name.startswith("dups/"):
            found = [d for d in found for _ in range(3)]
        headers = {"Content-Type": INDEX}
        if wanted:
            headers["OCI-Filters-Applied"] = "artifactType"
        if start + PAGE < len(found):
            q = {"start": str(start + PAGE)}
            if wanted:
                q["artifactType"] = wanted
            headers["Link"] = f'<{path.path}?{urllib.parse.urlencode(q)}>; rel="next"'
        body = json.dumps({"schemaVersion": 2, "mediaType": INDEX,
                           "manifests": found[start:start + PAGE]}).encode()
        return self.reply(200, body, headers, head=head)

    def fault(self, name, ref, base, start, head):
        one = {"mediaType": "application/vnd.oci.image.manifest.v1+json",
               "digest": "sha256:" + "a" * 64, "size": 500,
               "artifactType": "application/vnd.dsse.envelope.v1+json"}
        kind = name.split("/", 1)[1]
        headers = {"Content-Type": INDEX}
        if kind == "pages":
            manifests = [one]
            headers["Link"] = f'<{base}?start={start + 1}>; rel="next"'
        elif kind == "entries":
            manifests = [dict(one, digest="sha256:%064x" % i) for i in range(1500)]
        elif kind == "bytes":
            manifests = [dict(one, annotations={"x": "y" * 3000000})]
            headers["Link"] = f'<{base}?start={start + 1}>; rel="next"'
        else:
            return self.reply(404, head=head)
        body = json.dumps({"schemaVersion": 2, "mediaType": INDEX, "manifests": manifests}).encode()
        return self.reply(200, body, headers, head=head)

    def do_HEAD(self):
        self.do_GET(head=True)

    def do_POST(self):
        _, _, u = self.route()
        self.body()
        if not u or u.group(2):
            return self.reply(404)
        upload = str(uuid.uuid4())
        with store.lock:
            store.uploads.add(upload)
        self.reply(202, headers={"Location": f"/v2/{u.group(1)}/blobs/uploads/{upload}?state=x"})

    def do_PUT(self):
        path, m, u = self.route()
        data = self.body()
        if u:
            digest = urllib.parse.parse_qs(path.query).get("digest", [""])[0]
            if digest != "sha256:" + hashlib.sha256(data).hexdigest():
                return self.reply(400, b'{"errors":[{"code":"DIGEST_INVALID"}]}')
            with store.lock:
                store.blobs[(u.group(1), digest)] = data
            return self.reply(201, headers={"Docker-Content-Digest": digest})
        if not m or m.group(2) != "manifests":
            return self.reply(404)
        name, _, ref = m.groups()
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        mt = self.headers.get("Content-Type", "")
        with store.lock:
            store.manifests[(name, ref)] = (data, mt)
            store.manifests[(name, digest)] = (data, mt)
        headers = {"Docker-Content-Digest": digest}
        subject = json.loads(data).get("subject")
        if subject:
            headers["OCI-Subject"] = subject["digest"]
        self.reply(201, headers=headers)

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--lifetime", type=float, default=600)
    a = p.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    server.log = a.log
    threading.Thread(target=server.serve_forever, daemon=True).start()
    time.sleep(a.lifetime)

if __name__ == "__main__":
    main()
