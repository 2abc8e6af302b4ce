#!/usr/bin/env python3
"""Scenario driver for the ZenML 0.98.0 server (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42931 --mode capture [-v]

The driver logs in first (POST /api/v1/login, a form with the `default` user's throwaway
password) and sends the bearer token it gets on every later call.
The seed (seed.py, run by start.sh, not recorded) and the server's own defaults, with the fixed
ids below. Entities answer {"body", "metadata", "resources", "id", "permission_denied", "name"};
lists {"index", "max_size", "total_pages", "total", "items"}.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API = "/api/v1"
DEFAULT_USER = "718bb0ea-4b29-4ccd-a968-b916fafb477a"
DEFAULT_PROJECT = "c0feb0ee-7adf-4b74-9959-056946e745c4"
DEFAULT_STACK = "3837cc24-9441-4b12-b866-0c230271a791"
ORCHESTRATOR = "21a63c0e-6d86-49cf-82a9-d732e4bf866b"
DEPLOYER = "b9a38e8e-01d2-4681-a5bf-e9f69d6c0e56"
ARTIFACT_STORE = "ac6c99de-7a74-449c-b5ab-bd6a8f035d31"
RESEARCH = "db198c62-3aec-4620-a27d-dc290a19658b"
STAGING, LEGACY = "ddb85dfc-e83d-4518-a489-68420860fa0a", "74b4ac7f-f638-4041-99b6-a2e231cd5b95"
BOB = "bf330b2f-b319-4f89-ae15-dd1a4ba2b235"
ETL_BOT = "74ee2e49-e66f-4895-9ecd-1963ad70f4c5"
WAREHOUSE = "85113462-f769-4aa6-bee3-c1efd12265d2"
SHARED_STORE = "ff5460e5-559a-494a-b1af-6f556a29e4bb"
FRAUD = "b1eae920-fbf5-4574-8d27-82f1645fbfcb"
FRAUD_V1, FRAUD_V2 = "83f25445-8c9a-41fd-8e08-b8580101e448", "a1935ae5-a2fd-4643-9e54-6786b36d40c0"
NEVER = "00000000-0000-4000-8000-0000000000aa"  # an id no entity ever had
PASSWORD = "capenv-zenml-throwaway-password"     # start.sh's ZENML_DEFAULT_USER_PASSWORD


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, get, check = d.call, d.get, d.check

    def new_id(answer):
        return answer.get("id") if isinstance(answer, dict) else None

    # ---- a. log in, then reads before any write
    login = d.c.post(API + "/login", data={"username": "default", "password": PASSWORD})
    d.n += 1
    d.token = login.json()["access_token"]
    get("/health")
    get(API + "/info")
    get(API + "/current-user")
    get(API + "/projects")
    get(f"{API}/projects/{DEFAULT_PROJECT}")
    get(f"{API}/projects/research")
    get(f"{API}/projects/{RESEARCH}", hydrate="true")
    get(f"{API}/projects/{NEVER}", 404)
    get(API + "/tags")
    get(f"{API}/tags/{STAGING}")
    get(f"{API}/tags/{NEVER}", 404)
    get(API + "/users")
    get(f"{API}/users/bob")
    get(f"{API}/users/{BOB}")
    get(f"{API}/users/nobody-here", 404)
    get(API + "/service_accounts")
    get(f"{API}/service_accounts/{ETL_BOT}")
    get(API + "/secrets")
    get(f"{API}/secrets/{WAREHOUSE}")
    get(API + "/components")
    get(API + "/components", type="artifact_store")
    get(f"{API}/components/{SHARED_STORE}")
    get(API + "/stacks")
    get(f"{API}/stacks/{DEFAULT_STACK}")
    get(f"{API}/stacks/{DEFAULT_STACK}", hydrate="true")
    get(API + "/models")
    get(f"{API}/models/{FRAUD}")
    get(f"{API}/models/{FRAUD}/model_versions")
    get(API + "/model_versions")
    get(f"{API}/model_versions/{FRAUD_V1}")
    get(f"{API}/models/{NEVER}", 404)

    # ---- b. projects: create, read, update, list, delete
    a = call("POST", API + "/projects", {"name": "vision", "display_name": "Vision",
                                         "description": "Image models"}, expect=200)[1]
    vision = new_id(a)
    get(f"{API}/projects/{vision}")
    get(f"{API}/projects/vision")
    get(API + "/projects")
    call("POST", API + "/projects", {"name": "vision", "display_name": "Again"}, expect=409)
    call("POST", API + "/projects", {"name": ["not", "a", "string"]}, expect=422)
    call("PUT", f"{API}/projects/{vision}", {"display_name": "Computer Vision",
                                             "description": "Images and video"}, expect=200)
    get(f"{API}/projects/{vision}")
    get(f"{API}/projects/{vision}", hydrate="true")
    call("PUT", f"{API}/projects/{RESEARCH}", {"description": "Experiments, some of which ship"}, expect=200)
    get(f"{API}/projects/{RESEARCH}", hydrate="true")
    get(API + "/projects", sort_by="desc:created")
    get(API + "/projects", name="contains:vis")
    call("PUT", f"{API}/projects/{NEVER}", {"description": "nothing"}, expect=404)
    a = call("POST", API + "/projects", {"name": "sandbox", "display_name": "Sandbox"}, expect=200)[1]
    sandbox = new_id(a)
    get(API + "/projects")
    call("DELETE", f"{API}/projects/{sandbox}", expect=200)
    get(f"{API}/projects/{sandbox}", 404)
    get(API + "/projects")
    call("DELETE", f"{API}/projects/{sandbox}", expect=404)

    # ---- c. tags: creates, paging, filters, updates, delete
    tags = {}
    for name, color in (("prod", "green"), ("nightly", "blue"), ("experimental", "orange")):
        a = call("POST", API + "/tags", {"name": name, "color": color}, expect=200)[1]
        tags[name] = new_id(a)
        get(f"{API}/tags/{tags[name]}")
    get(API + "/tags")
    get(API + "/tags", size="2")
    get(API + "/tags", size="2", page="2")
    get(API + "/tags", sort_by="name")
    get(API + "/tags", name="contains:ni")
    get(API + "/tags", name="prod")
    get(API + "/tags", color="orange")
    call("POST", API + "/tags", {"name": "prod", "color": "red"}, expect=409)
    call("POST", API + "/tags", {"color": "red"}, expect=422)
    call("POST", API + "/tags", {"name": "bad-color", "color": "ultraviolet"}, expect=422)
    call("PUT", f"{API}/tags/{tags['nightly']}", {"color": "purple"}, expect=200)
    get(f"{API}/tags/{tags['nightly']}")
    call("PUT", f"{API}/tags/{tags['experimental']}", {"name": "exploratory", "exclusive": True}, expect=200)
    get(f"{API}/tags/{tags['experimental']}")
    get(API + "/tags", sort_by="name")
    call("PUT", f"{API}/tags/{LEGACY}", {"color": "red"}, expect=200)
    get(f"{API}/tags/{LEGACY}")
    call("PUT", f"{API}/tags/{NEVER}", {"color": "red"}, expect=404)
    call("DELETE", f"{API}/tags/{LEGACY}", expect=200)
    get(f"{API}/tags/{LEGACY}", 404)
    get(API + "/tags")
    call("DELETE", f"{API}/tags/{NEVER}", expect=404)

    # ---- d. users: create, read by name and id, update, deactivate, delete
    a = call("POST", API + "/users", {"name": "carol", "full_name": "Carol Shaw", "is_admin": False,
                                      "active": True, "password": "capenv-carol-throwaway"}, expect=200)[1]
    carol = new_id(a)
    get(f"{API}/users/{carol}")
    get(f"{API}/users/carol")
    get(API + "/users")
    call("POST", API + "/users", {"name": "carol", "is_admin": False}, expect=409)
    call("POST", API + "/users", {"name": "dave"}, expect=422)
    call("PUT", f"{API}/users/{carol}", {"full_name": "Carol Shaw-Lee"}, expect=200)
    get(f"{API}/users/{carol}")
    get(f"{API}/users/{carol}", hydrate="true")
    call("PUT", f"{API}/users/{BOB}", {"full_name": "Robert Builder", "active": False}, expect=200)
    get(f"{API}/users/{BOB}", hydrate="true")
    get(API + "/users", name="contains:o")
    get(API + "/users", sort_by="desc:name")
    a = call("POST", API + "/users", {"name": "erin", "full_name": "Erin Temp", "is_admin": False,
                                      "active": True, "password": "capenv-erin-throwaway"}, expect=200)[1]
    erin = new_id(a)
    get(API + "/users")
    call("DELETE", f"{API}/users/{erin}", expect=200)
    get(f"{API}/users/{erin}", 404)
    get(API + "/users")
    call("PUT", f"{API}/users/{NEVER}", {"full_name": "x"}, expect=404)

    # ---- e. service accounts
    a = call("POST", API + "/service_accounts", {"name": "deploy-bot", "description": "Deploys models",
                                                 "active": True}, expect=200)[1]
    deploy_bot = new_id(a)
    get(f"{API}/service_accounts/{deploy_bot}")
    get(f"{API}/service_accounts/deploy-bot")
    get(API + "/service_accounts")
    call("POST", API + "/service_accounts", {"name": "deploy-bot", "active": True}, expect=409)
    call("PUT", f"{API}/service_accounts/{deploy_bot}", {"description": "Deploys models to prod"}, expect=200)
    get(f"{API}/service_accounts/{deploy_bot}")
    call("PUT", f"{API}/service_accounts/{ETL_BOT}", {"active": False}, expect=200)
    get(f"{API}/service_accounts/{ETL_BOT}")
    get(API + "/service_accounts", active="true")
    call("DELETE", f"{API}/service_accounts/{deploy_bot}", expect=200)
    get(f"{API}/service_accounts/{deploy_bot}", 404)
    get(API + "/service_accounts")

    # ---- f. secrets: values shown on an item read, not in lists
    a = call("POST", API + "/secrets", {"name": "s3-creds", "private": False,
                                        "values": {"aws_access_key_id": "AKIDEXAMPLE",
                                                   "aws_secret_access_key": "capenv-throwaway-s3"}},
             expect=200)[1]
    s3 = new_id(a)
    get(f"{API}/secrets/{s3}")
    get(API + "/secrets")
    call("POST", API + "/secrets", {"name": "s3-creds", "private": False, "values": {"k": "v"}}, expect=409)
    call("POST", API + "/secrets", {"values": {"k": "v"}}, expect=422)
    call("PUT", f"{API}/secrets/{s3}", {"values": {"region": "eu-west-1"}}, expect=200)
    get(f"{API}/secrets/{s3}")
    call("PUT", f"{API}/secrets/{WAREHOUSE}", {"name": "warehouse-ro"}, expect=200)
    get(f"{API}/secrets/{WAREHOUSE}")
    get(API + "/secrets", name="contains:ware")
    a = call("POST", API + "/secrets", {"name": "private-token", "private": True,
                                        "values": {"token": "capenv-throwaway-token"}}, expect=200)[1]
    private = new_id(a)
    get(f"{API}/secrets/{private}")
    get(API + "/secrets", sort_by="name")
    call("DELETE", f"{API}/secrets/{private}", expect=200)
    get(f"{API}/secrets/{private}", 404)
    get(API + "/secrets")

    # ---- g. stack components and stacks (built-in flavors)
    a = call("POST", API + "/components", {"name": "archive", "type": "artifact_store", "flavor": "local",
                                           "configuration": {"path": "/srv/zenml/archive"}}, expect=200)[1]
    archive = new_id(a)
    get(f"{API}/components/{archive}")
    get(f"{API}/components/{archive}", hydrate="true")
    get(API + "/components", type="artifact_store")
    a = call("POST", API + "/components", {"name": "local-runner", "type": "orchestrator", "flavor": "local",
                                           "configuration": {}}, expect=200)[1]
    runner = new_id(a)
    get(f"{API}/components/{runner}")
    call("POST", API + "/components", {"name": "archive", "type": "artifact_store", "flavor": "local",
                                       "configuration": {"path": "/srv/zenml/other"}}, expect=409)
    call("POST", API + "/components", {"name": "no-type", "flavor": "local", "configuration": {}}, expect=422)
    call("PUT", f"{API}/components/{archive}", {"configuration": {"path": "/srv/zenml/archive-2"}}, expect=200)
    get(f"{API}/components/{archive}", hydrate="true")
    call("PUT", f"{API}/components/{SHARED_STORE}", {"name": "team-store"}, expect=200)
    get(f"{API}/components/{SHARED_STORE}")
    get(API + "/components", name="contains:store")
    a = call("POST", API + "/stacks", {"name": "archival", "description": "Runs that keep their artifacts",
                                       "components": {"orchestrator": [runner],
                                                      "artifact_store": [archive]}}, expect=200)[1]
    archival = new_id(a)
    get(f"{API}/stacks/{archival}")
    get(f"{API}/stacks/{archival}", hydrate="true")
    get(API + "/stacks")
    call("POST", API + "/stacks", {"name": "archival", "components": {"orchestrator": [ORCHESTRATOR],
                                                                      "artifact_store": [ARTIFACT_STORE]}},
         expect=409)
    call("POST", API + "/stacks", {"name": "half", "components": {"orchestrator": [ORCHESTRATOR]}}, expect=422)
    call("PUT", f"{API}/stacks/{archival}", {"description": "Long-term artifacts",
                                             "components": {"orchestrator": [ORCHESTRATOR],
                                                            "artifact_store": [archive]}}, expect=200)
    get(f"{API}/stacks/{archival}", hydrate="true")
    get(API + "/stacks", name="contains:arch")
    call("DELETE", f"{API}/components/{archive}", expect=403)  # still in a stack
    call("DELETE", f"{API}/stacks/{archival}", expect=200)
    get(f"{API}/stacks/{archival}", 404)
    get(API + "/stacks")
    call("DELETE", f"{API}/components/{archive}", expect=200)
    get(f"{API}/components/{archive}", 404)
    call("DELETE", f"{API}/components/{runner}", expect=200)
    get(API + "/components")
    get(f"{API}/stacks/{NEVER}", 404)

    # ---- h. models and model versions
    a = call("POST", API + "/models", {"name": "churn-predictor", "project": DEFAULT_PROJECT,
                                       "license": "MIT", "description": "Who leaves next month",
                                       "use_cases": "retention"}, expect=200)[1]
    churn = new_id(a)
    get(f"{API}/models/{churn}")
    get(f"{API}/models/{churn}", hydrate="true")
    get(API + "/models")
    call("POST", API + "/models", {"name": "churn-predictor", "project": DEFAULT_PROJECT}, expect=409)
    call("POST", API + "/models", {"name": "no-project"}, expect=422)
    call("PUT", f"{API}/models/{churn}", {"description": "Who leaves within 30 days",
                                          "limitations": "EU customers only"}, expect=200)
    get(f"{API}/models/{churn}", hydrate="true")
    versions = {}
    for name, description in (("v1", "logistic regression"), ("v2", "gradient boosting")):
        a = call("POST", API + "/model_versions", {"model": churn, "project": DEFAULT_PROJECT, "name": name,
                                                   "description": description}, expect=200)[1]
        versions[name] = new_id(a)
        get(f"{API}/model_versions/{versions[name]}")
        get(f"{API}/models/{churn}/model_versions")
    get(API + "/model_versions", model_id=churn)
    get(API + "/model_versions", sort_by="desc:number", model_id=churn)
    get(f"{API}/models/{churn}")
    call("POST", API + "/model_versions", {"model": churn, "project": DEFAULT_PROJECT, "name": "v1"}, expect=409)
    call("POST", API + "/model_versions", {"model": NEVER, "project": DEFAULT_PROJECT, "name": "v9"}, expect=404)
    call("PUT", f"{API}/model_versions/{versions['v2']}", {"stage": "staging",
                                                            "description": "gradient boosting, tuned"}, expect=200)
    get(f"{API}/model_versions/{versions['v2']}")
    call("PUT", f"{API}/model_versions/{FRAUD_V2}", {"stage": "production"}, expect=200)
    get(f"{API}/model_versions/{FRAUD_V2}")
    get(API + "/model_versions", stage="production")
    call("PUT", f"{API}/model_versions/{versions['v1']}", {"name": "v1-baseline"}, expect=200)
    get(f"{API}/model_versions/{versions['v1']}")
    call("DELETE", f"{API}/model_versions/{versions['v1']}", expect=200)
    get(f"{API}/model_versions/{versions['v1']}", 404)
    get(f"{API}/models/{churn}/model_versions")
    call("PUT", f"{API}/models/{FRAUD}", {"description": "Flags card and wire fraud"}, expect=200)
    get(f"{API}/models/{FRAUD}", hydrate="true")
    call("DELETE", f"{API}/models/{churn}", expect=200)
    get(f"{API}/models/{churn}", 404)
    get(f"{API}/model_versions/{versions['v2']}", 404)
    get(API + "/models")
    get(API + "/model_versions")
    call("DELETE", f"{API}/models/{churn}", expect=404)

    # ---- i. the project deleted last, and what is left
    call("DELETE", f"{API}/projects/{vision}", expect=200)
    get(f"{API}/projects/{vision}", 404)
    get(API + "/projects")
    get(API + "/tags")
    check("calls", d.n > 0, True)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42931")
