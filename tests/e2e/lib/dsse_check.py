# Checks a DSSE envelope's signature with python3-securesystemslib, not with envlock:
# /usr/bin/python3 dsse_check.py ENVELOPE PUBLIC_KEY_HEX [flip]. The pre-authentication encoding is
# written here from the DSSE specification; the Ed25519 check is securesystemslib's (SSlibKey).
# With "flip", one byte of the payload is changed first. Prints "verified KEYID" and exits 0, or
# prints why and exits 1.
import base64, json, sys
from securesystemslib import exceptions
from securesystemslib.signer import Signature, SSlibKey

envelope = json.load(open(sys.argv[1]))
public_hex = sys.argv[2]
payload = base64.b64decode(envelope["payload"])
if len(sys.argv) > 3 and sys.argv[3] == "flip":
    payload = payload[:10] + bytes([payload[10] ^ 1]) + payload[11:]
ptype = envelope["payloadType"].encode()
pae = b"DSSEv1 %d %s %d %s" % (len(ptype), ptype, len(payload), payload)
key_id = envelope["signatures"][0]["keyid"]
key = SSlibKey.from_dict(key_id, {"keytype": "ed25519", "scheme": "ed25519",
                                  "keyval": {"public": public_hex}})
sig = Signature(key_id, base64.b64decode(envelope["signatures"][0]["sig"]).hex())
try:
    key.verify_signature(sig, pae)
except exceptions.UnverifiedSignatureError as e:
    print(f"not verified: {e}")
    sys.exit(1)
print(f"verified {key_id}")
