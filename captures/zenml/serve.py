"""Run the ZenML 0.98.0 server (zenml.zen_server.zen_server_api:app) under uvicorn, as
`zenml login --local` does in its blocking mode, with one difference: until the file named by
CAPENV_SEEDED_FLAG exists (start.sh touches it once seed.py is done), uuid.uuid4 draws from a
fixed-seed generator, so the ids of the database's defaults (the server's deployment id, the
`default` user, project, stack and its components) and of the seed are the same at every fresh
start, and start.sh's throwaway bearer token (token.txt, signed for the `default` user's id) is
accepted by every start. After the seed, ids are random again, as the application makes them.

And one more: FastAPI 0.138 (the only series zenml 0.98.0 accepts) writes the endpoint's source
file into every 422 answer (`File "<site-packages>/zenml/zen_server/utils.py", line 63, in
create_model`); the file is named relative to site-packages instead, so no machine path reaches
an answer and every install answers alike.

Usage: python serve.py PORT
"""

import os
import random
import sys
import uuid

_flag = os.environ["CAPENV_SEEDED_FLAG"]
_random_uuid4 = uuid.uuid4
_seeded = random.Random("capenv-zenml-seed")


def _uuid4() -> uuid.UUID:
    if os.path.exists(_flag):
        return _random_uuid4()
    return uuid.UUID(int=_seeded.getrandbits(128), version=4)


uuid.uuid4 = _uuid4  # before zenml is imported: its modules bind uuid4 when they import it

import fastapi.routing  # noqa: E402

_endpoint_context = fastapi.routing._extract_endpoint_context


def _relative_endpoint_context(func):
    context = dict(_endpoint_context(func))
    if "file" in context:
        context["file"] = context["file"].split("/site-packages/", 1)[-1]
    return context


fastapi.routing._extract_endpoint_context = _relative_endpoint_context

import uvicorn  # noqa: E402

import zenml.zen_server.request_management  # noqa: E402
import zenml.zen_server.utils  # noqa: E402
from zenml.zen_server.zen_server_api import app  # noqa: E402

# Request ids and background task ids are drawn per call, as many as the readiness polls make:
# random from the start, so that the seed's ids do not depend on how long the server took to start.
zenml.zen_server.request_management.uuid4 = _random_uuid4
zenml.zen_server.utils.uuid4 = _random_uuid4

uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]),
            log_level="warning", server_header=False)
