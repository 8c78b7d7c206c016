"""Schemathesis hooks for Filia's contract (loaded through SCHEMATHESIS_HOOKS by ops/contract/run).

A resumable video upload's chunk (`PATCH /api/uploads/videos/{id}`) is sent as
`application/offset+octet-stream`, tus' media type for raw bytes at an offset, which
schemathesis has no serializer for: it goes on the wire as the bytes generated.
"""

import schemathesis
from schemathesis.transport.serialization import serialize_binary


@schemathesis.serializer("application/offset+octet-stream")
def offset_octet_stream(ctx, value):
    return serialize_binary(value)
