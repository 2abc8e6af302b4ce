"""A middleware that answers every request as if it named Host 127.0.0.1 (no port).

Nautobot writes absolute URLs (`url`, `notes_url`, `next`) from the request's Host: behind the
recording proxy, on a live test's random port and on the recording's port they would all differ.
With one fixed Host every start writes the same URLs whatever port it listens on.
"""


class FixedHostMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.META["HTTP_HOST"] = "127.0.0.1"
        request.META["SERVER_PORT"] = "80"
        return self.get_response(request)
