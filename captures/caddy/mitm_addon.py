"""mitmdump addon for recording Caddy's admin API (captures/kit/record.sh loads it with -s).

Caddy's admin API answers every GET of the configuration with a chunked body and an HTTP
trailer (``Trailer: ETag``, the hash of the configuration after the body), and mitmproxy 11
cannot read HTTP/1.1 trailers ("HTTP trailers are not implemented yet": every read would be a
502). Sent upstream as HTTP/1.0, the same request is answered the same, but delimited by the
connection's close, so no chunked encoding and no trailer: the ETag value (never needed by the
scenario) is the only thing the recording does not show. The HAR records the request as it went
to Caddy (HTTP/1.0).
"""


def request(flow):
    flow.request.http_version = "HTTP/1.0"
