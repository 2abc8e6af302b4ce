"""mitmdump addon for recording doccano (captures/kit/record.sh loads it with -s).

doccano's bulk deletes name their entities in a DELETE body (`{"ids": [4]}` on
/v1/projects, /v1/projects/{id}/examples, .../members, .../span-types), but mitmproxy 11's HAR
export writes a request body (`postData`) only for POST, PUT and PATCH: the recording would not
show what a bulk delete removed. Once mitmdump runs, this addon wraps the HAR exporter's
per-flow entry so that a DELETE with a body gets its `postData` as a POST's would (same members).
Nothing else changes.
"""
from mitmproxy import ctx


def running():
    exporter = ctx.master.addons.get("savehar")
    entry_of = exporter.flow_entry

    def flow_entry(flow, servers_seen):
        entry = entry_of(flow, servers_seen)
        if flow.request.method == "DELETE" and flow.request.content:
            entry["request"]["postData"] = {
                "mimeType": flow.request.headers.get("Content-Type", ""),
                "text": flow.request.get_text(strict=False),
                "params": exporter.format_multidict(flow.request.urlencoded_form),
            }
        return entry

    exporter.flow_entry = flow_entry
