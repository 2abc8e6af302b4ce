#!/usr/bin/env python3
"""Scenario driver for Medusa 2.21.2's Admin API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18301 --mode capture [-v]

Envelopes are named by the type: items `{product_category: {...}}`, lists `{product_categories: [...],
count, offset, limit}` with `q=`, `limit`/`offset`, `order=` (`-` descending) and `fields=`
projections (`+field` adds, `*relation` expands). Creates are POSTs to the collection answering the
item envelope (200), updates are POSTs to the item path answering it too, deletes answer
`{id, object, deleted: true}`. Ids are prefixed ULIDs (`pcat_01…`, `prod_01…`). Errors:
`{type: "not_found" | "invalid_data" | "unauthorized", message}`.
The scenario logs in as the admin (`POST /auth/user/emailpass` answers a JWT, sent as
`Authorization: Bearer`), finds the seeded entities by their names (seed.py, README "Seed data"),
then works through every kind of entity, reading each back after each write. Every call is
sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

ADMIN = {"email": "admin@capenv.test", "password": "capenv-medusa-throwaway"}
MISSING = {"product-categories": "pcat_01JZZZZZZZZZZZZZZZZZZZZZZZ", "collections": "pcol_01JZZZZZZZZZZZZZZZZZZZZZZZ",
           "product-tags": "ptag_01JZZZZZZZZZZZZZZZZZZZZZZZ", "product-types": "ptyp_01JZZZZZZZZZZZZZZZZZZZZZZZ",
           "products": "prod_01JZZZZZZZZZZZZZZZZZZZZZZZ", "customers": "cus_01JZZZZZZZZZZZZZZZZZZZZZZZ",
           "customer-groups": "cusgroup_01JZZZZZZZZZZZZZZZZZZZZZZZ", "regions": "reg_01JZZZZZZZZZZZZZZZZZZZZZZZ",
           "sales-channels": "sc_01JZZZZZZZZZZZZZZZZZZZZZZZ", "stock-locations": "sloc_01JZZZZZZZZZZZZZZZZZZZZZZZ"}

# Ids no call reads: a delete of one answers deleted: true all the same, which names the id; kept
# apart from MISSING so the reads of MISSING stay reads of an id the application never showed.
UNSEEN = {kind: value.replace("01JZZ", "01JYY") for kind, value in MISSING.items()}


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def capture(d):
    call, check, get = d.call, d.check, d.get

    def send(method, path, body=None, expect=200, params=None, **kw):
        return call(method, path, body=body, params=params, expect=expect, **kw)[1]

    def item(answer, key):
        return answer.get(key, {}) if isinstance(answer, dict) else {}

    def find(path, key, match, **params):
        """The id of the one entity of a list read whose members match ``match``."""
        found = [e for e in get(path, **params).get(key, []) if all(e.get(k) == v for k, v in match.items())]
        check(f"{path} {match}", len(found), 1)
        return found[0]["id"] if found else "missing"

    # ---- a. log in; without the token 401
    status, answer = call("POST", "/auth/user/emailpass", body=ADMIN, token=None, expect=200)
    d.token = answer.get("token") if isinstance(answer, dict) else None
    call("POST", "/auth/user/emailpass", body={"email": ADMIN["email"], "password": "wrong"}, token=None, expect=401)
    call("GET", "/admin/products", token=None, expect=401)
    call("GET", "/admin/product-categories", token=None, expect=401)
    call("POST", "/admin/product-tags", body={"value": "anonymous"}, token=None, expect=401)
    get("/admin/users/me")
    get("/admin/stores")

    # ---- b. reads before any write: every kind of entity, lists, search, paging, order,
    #      projections, filters, items, missing ids
    get("/admin/product-categories")
    apparel = find("/admin/product-categories", "product_categories", {"name": "Apparel"}, q="Apparel")
    shirts = find("/admin/product-categories", "product_categories", {"name": "Shirts"}, q="Shirt")
    get("/admin/product-categories", limit="2")
    get("/admin/product-categories", limit="2", offset="2")
    get("/admin/product-categories", order="name")
    get("/admin/product-categories", order="-name", fields="id,name,handle")
    get("/admin/product-categories", parent_category_id=apparel)
    get(f"/admin/product-categories/{apparel}")
    get(f"/admin/product-categories/{apparel}", fields="*category_children")
    get(f"/admin/product-categories/{shirts}", fields="id,name,*products")
    get(f"/admin/product-categories/{MISSING['product-categories']}", expect=404)
    get("/admin/collections")
    summer = find("/admin/collections", "collections", {"title": "Summer"}, q="Summer")
    get("/admin/collections", limit="1", offset="1")
    get("/admin/collections", order="-title")
    get(f"/admin/collections/{summer}")
    get(f"/admin/collections/{summer}", fields="id,title,*products")
    get(f"/admin/collections/{MISSING['collections']}")  # 200 {}
    get("/admin/product-tags")
    sale = find("/admin/product-tags", "product_tags", {"value": "sale"}, q="sale")
    get("/admin/product-tags", limit="2", order="value")
    get("/admin/product-tags", value="wool")
    get(f"/admin/product-tags/{sale}")
    get(f"/admin/product-tags/{MISSING['product-tags']}")  # 200 {}
    get("/admin/product-types")
    clothing = find("/admin/product-types", "product_types", {"value": "clothing"}, q="cloth")
    get(f"/admin/product-types/{clothing}")
    get(f"/admin/product-types/{MISSING['product-types']}")  # 200 {}
    fields = "id,title,handle,status,metadata,*variants,*options"
    get("/admin/products", fields="id,title,handle,status")
    tshirt = find("/admin/products", "products", {"title": "Classic T-shirt"}, q="T-shirt", fields="id,title")
    scarf = find("/admin/products", "products", {"title": "Wool scarf"}, q="scarf", fields="id,title")
    get("/admin/products", **{"status[]": "draft", "fields": "id,title,status"})
    get("/admin/products", limit="1", offset="1", order="title", fields="id,title")
    get("/admin/products", collection_id=summer, fields="id,title")
    get(f"/admin/products/{tshirt}")
    get(f"/admin/products/{scarf}", fields=fields)
    get(f"/admin/products/{tshirt}/variants", fields="id,title,sku")
    get(f"/admin/products/{tshirt}/options")
    get(f"/admin/products/{MISSING['products']}", expect=404)
    get("/admin/customers")
    ada = find("/admin/customers", "customers", {"email": "ada@capenv.test"}, q="ada")
    alan = find("/admin/customers", "customers", {"email": "alan@capenv.test"}, q="alan")
    get("/admin/customers", limit="2", offset="0", order="email")
    get(f"/admin/customers/{ada}")
    get(f"/admin/customers/{ada}", fields="id,email,*groups")
    get(f"/admin/customers/{MISSING['customers']}", expect=404)
    get("/admin/regions")
    europe = find("/admin/regions", "regions", {"name": "Europe"}, q="Europe")
    get(f"/admin/regions/{europe}")
    get(f"/admin/regions/{MISSING['regions']}", expect=404)
    get("/admin/customer-groups")
    vip = find("/admin/customer-groups", "customer_groups", {"name": "VIP"}, q="VIP")
    get(f"/admin/customer-groups/{vip}")
    get(f"/admin/customer-groups/{vip}", fields="id,name,*customers")
    get("/admin/customers", groups=vip, fields="id,email")
    get(f"/admin/customer-groups/{MISSING['customer-groups']}", expect=404)
    get("/admin/sales-channels")
    outlet = find("/admin/sales-channels", "sales_channels", {"name": "Outlet"}, q="Outlet")
    get(f"/admin/sales-channels/{outlet}")
    get(f"/admin/sales-channels/{MISSING['sales-channels']}", expect=404)
    get("/admin/stock-locations")
    warehouse = find("/admin/stock-locations", "stock_locations", {"name": "Main warehouse"}, q="warehouse")
    get(f"/admin/stock-locations/{warehouse}")
    get(f"/admin/stock-locations/{warehouse}", fields="id,name,*address")

    # ---- c. product categories: creates, POST updates, deletes, each read back; errors
    shoes = item(send("POST", "/admin/product-categories", {"name": "Shoes", "description": "For feet",
                                                              "is_active": True}), "product_category")
    get(f"/admin/product-categories/{shoes.get('id')}")
    boots = item(send("POST", "/admin/product-categories", {"name": "Boots", "handle": "boots",
                                                              "parent_category_id": shoes.get("id")}), "product_category")
    get(f"/admin/product-categories/{boots.get('id')}")
    get(f"/admin/product-categories/{shoes.get('id')}", fields="*category_children")
    send("POST", f"/admin/product-categories/{shoes.get('id')}", {"description": "Shoes and boots"})
    get(f"/admin/product-categories/{shoes.get('id')}")
    send("POST", f"/admin/product-categories/{boots.get('id')}", {"name": "Winter boots", "is_internal": True,
                                                                  "metadata": {"lined": True}})
    get(f"/admin/product-categories/{boots.get('id')}")
    get("/admin/product-categories", q="boots")
    send("POST", "/admin/product-categories", {"description": "no name"}, expect=400)
    send("POST", "/admin/product-categories", {"name": "Taken", "handle": "apparel"}, expect=400)
    send("POST", f"/admin/product-categories/{MISSING['product-categories']}", {"name": "Nowhere"})  # 200 {}
    send("POST", f"/admin/product-categories/{shoes.get('id')}", {"name": 42}, expect=400)
    get(f"/admin/product-categories/{shoes.get('id')}")
    send("DELETE", f"/admin/product-categories/{boots.get('id')}")
    get(f"/admin/product-categories/{boots.get('id')}", expect=404)
    get(f"/admin/product-categories/{shoes.get('id')}", fields="*category_children")
    send("DELETE", f"/admin/product-categories/{MISSING['product-categories']}", expect=404)
    get("/admin/product-categories")

    # ---- d. collections
    autumn = item(send("POST", "/admin/collections", {"title": "Autumn", "handle": "autumn-2026"}), "collection")
    get(f"/admin/collections/{autumn.get('id')}")
    spring = item(send("POST", "/admin/collections", {"title": "Spring sale", "metadata": {"banner": "green"}}),
                  "collection")
    get(f"/admin/collections/{spring.get('id')}")
    send("POST", f"/admin/collections/{autumn.get('id')}", {"title": "Autumn 2026"})
    get(f"/admin/collections/{autumn.get('id')}")
    send("POST", f"/admin/collections/{spring.get('id')}", {"handle": "spring", "metadata": {"banner": "blue"}})
    get(f"/admin/collections/{spring.get('id')}")
    get("/admin/collections", q="autumn")
    send("POST", "/admin/collections", {"handle": "no-title"}, expect=400)
    send("POST", f"/admin/collections/{MISSING['collections']}", {"title": "Nowhere"}, expect=404)
    send("DELETE", f"/admin/collections/{spring.get('id')}")
    get(f"/admin/collections/{spring.get('id')}")  # 200 {}
    get("/admin/collections")

    # ---- d. product tags
    linen = item(send("POST", "/admin/product-tags", {"value": "linen"}), "product_tag")
    get(f"/admin/product-tags/{linen.get('id')}")
    eco = item(send("POST", "/admin/product-tags", {"value": "eco", "metadata": {"certified": True}}), "product_tag")
    get(f"/admin/product-tags/{eco.get('id')}")
    send("POST", f"/admin/product-tags/{linen.get('id')}", {"value": "linen blend"})
    get(f"/admin/product-tags/{linen.get('id')}")
    send("POST", f"/admin/product-tags/{eco.get('id')}", {"metadata": {"certified": False}})
    get(f"/admin/product-tags/{eco.get('id')}")
    send("POST", "/admin/product-tags", {}, expect=400)
    send("POST", "/admin/product-tags", {"value": "sale"}, expect=400)
    send("POST", f"/admin/product-tags/{MISSING['product-tags']}", {"value": "nowhere"}, expect=404)
    send("DELETE", f"/admin/product-tags/{eco.get('id')}")
    get(f"/admin/product-tags/{eco.get('id')}")  # 200 {}
    send("DELETE", f"/admin/product-tags/{UNSEEN['product-tags']}")  # 200 deleted
    get("/admin/product-tags")

    # ---- e. product types
    footwear = item(send("POST", "/admin/product-types", {"value": "footwear"}), "product_type")
    get(f"/admin/product-types/{footwear.get('id')}")
    send("POST", f"/admin/product-types/{footwear.get('id')}", {"value": "shoes", "metadata": {"sized": True}})
    get(f"/admin/product-types/{footwear.get('id')}")
    get("/admin/product-types", order="-value")
    send("POST", "/admin/product-types", {"metadata": {}}, expect=400)
    send("DELETE", f"/admin/product-types/{footwear.get('id')}")
    get(f"/admin/product-types/{footwear.get('id')}")  # 200 {}
    get("/admin/product-types")

    # ---- f. products with options and variants
    hoodie = item(send("POST", "/admin/products", {
        "title": "Hoodie", "status": "draft", "description": "Warm", "metadata": {"lining": "fleece"},
        "options": [{"title": "Size", "values": ["M", "L"]}],
        "variants": [{"title": "Hoodie M", "sku": "HOODIE-M", "options": {"Size": "M"}, "manage_inventory": False,
                      "prices": [{"currency_code": "eur", "amount": 45}]}]}), "product")
    hoodie_id = hoodie.get("id")
    get(f"/admin/products/{hoodie_id}", fields=fields)
    get("/admin/products", q="hoodie", fields="id,title,status")
    send("POST", f"/admin/products/{hoodie_id}", {"title": "Zip hoodie"}, params={"fields": fields})
    get(f"/admin/products/{hoodie_id}", fields=fields)
    send("POST", f"/admin/products/{hoodie_id}", {"status": "published", "metadata": {"lining": "cotton"}},
         params={"fields": fields})
    get(f"/admin/products/{hoodie_id}", fields=fields)
    answer = send("POST", f"/admin/products/{hoodie_id}/variants", {
        "title": "Hoodie L", "sku": "HOODIE-L", "options": {"Size": "L"}, "manage_inventory": False,
        "prices": [{"currency_code": "eur", "amount": 47}]}, params={"fields": fields})
    variants = item(answer, "product").get("variants") or []
    large = next((v["id"] for v in variants if v.get("sku") == "HOODIE-L"), "missing")
    get(f"/admin/products/{hoodie_id}/variants/{large}", fields="id,title,sku,manage_inventory")
    send("POST", f"/admin/products/{hoodie_id}/variants/{large}", {"title": "Hoodie large"},
         params={"fields": fields})
    get(f"/admin/products/{hoodie_id}/variants/{large}", fields="id,title,sku,manage_inventory")
    send("POST", f"/admin/products/{hoodie_id}/variants", {"title": "Same sku", "sku": "HOODIE-L",
                                                          "options": {"Size": "L"},
                                                          "prices": [{"currency_code": "eur", "amount": 1}]}, expect=400)
    send("DELETE", f"/admin/products/{hoodie_id}/variants/{large}")
    get(f"/admin/products/{hoodie_id}/variants/{large}")  # 200 {}
    get(f"/admin/products/{hoodie_id}", fields=fields)
    send("POST", f"/admin/products/{scarf}", {"metadata": {"care": "hand wash"}}, params={"fields": fields})
    get(f"/admin/products/{scarf}", fields=fields)
    send("POST", "/admin/products", {"status": "draft"}, expect=400)
    send("POST", "/admin/products", {"title": "Bad status", "status": "sold"}, expect=400)
    send("POST", f"/admin/products/{MISSING['products']}", {"title": "Nowhere"}, expect=404)
    send("DELETE", f"/admin/products/{hoodie_id}")
    get(f"/admin/products/{hoodie_id}", expect=404)
    send("DELETE", f"/admin/products/{UNSEEN['products']}")  # 200 deleted
    get("/admin/products", fields="id,title,handle,status")

    # ---- g. customers and customer groups
    barbara = item(send("POST", "/admin/customers", {"email": "barbara@capenv.test", "first_name": "Barbara",
                                                     "last_name": "Liskov"}), "customer")
    get(f"/admin/customers/{barbara.get('id')}")
    send("POST", f"/admin/customers/{barbara.get('id')}", {"company_name": "Substitution Inc", "phone": "+49 40 123"})
    get(f"/admin/customers/{barbara.get('id')}")
    send("POST", "/admin/customers", {"email": "ada@capenv.test", "first_name": "Again"}, expect=400)
    send("POST", "/admin/customers", {"email": "not-an-email"}, expect=400)
    send("POST", f"/admin/customers/{MISSING['customers']}", {"first_name": "Nobody"}, expect=404)
    students = item(send("POST", "/admin/customer-groups", {"name": "Students"}), "customer_group")
    get(f"/admin/customer-groups/{students.get('id')}")
    send("POST", f"/admin/customer-groups/{students.get('id')}", {"metadata": {"discount": "5%"}})
    get(f"/admin/customer-groups/{students.get('id')}")
    send("POST", f"/admin/customer-groups/{students.get('id')}/customers",
         {"add": [alan, barbara.get("id")]})
    get(f"/admin/customer-groups/{students.get('id')}", fields="id,name,*customers")
    get(f"/admin/customers/{alan}", fields="id,email,*groups")
    send("POST", f"/admin/customer-groups/{vip}/customers", {"remove": [ada]})
    get(f"/admin/customer-groups/{vip}", fields="id,name,*customers")
    get("/admin/customers", groups=vip, fields="id,email")
    send("POST", "/admin/customer-groups", {"name": "VIP"}, expect=400)
    send("POST", "/admin/customer-groups", {}, expect=400)
    send("POST", f"/admin/customer-groups/{MISSING['customer-groups']}/customers", {"add": [ada]}, expect=404)
    send("DELETE", f"/admin/customer-groups/{students.get('id')}")
    get(f"/admin/customer-groups/{students.get('id')}", expect=404)
    get(f"/admin/customers/{alan}", fields="id,email,*groups")
    send("DELETE", f"/admin/customers/{barbara.get('id')}")
    get(f"/admin/customers/{barbara.get('id')}", expect=404)
    send("DELETE", f"/admin/customers/{UNSEEN['customers']}")  # 200 deleted
    get("/admin/customers", fields="id,email,first_name")

    # ---- h. regions, sales channels, stock locations
    asia = item(send("POST", "/admin/regions", {"name": "Asia", "currency_code": "jpy", "countries": ["jp"]}),
                "region")
    get(f"/admin/regions/{asia.get('id')}")
    send("POST", f"/admin/regions/{asia.get('id')}", {"name": "Japan", "metadata": {"vat": "10%"}})
    get(f"/admin/regions/{asia.get('id')}")
    send("POST", "/admin/regions", {"name": "Twice", "currency_code": "eur", "countries": ["de"]}, expect=400)
    send("DELETE", f"/admin/regions/{asia.get('id')}")
    get(f"/admin/regions/{asia.get('id')}", expect=404)
    pop_up = item(send("POST", "/admin/sales-channels", {"name": "Pop-up store", "description": "Summer only"}),
                  "sales_channel")
    get(f"/admin/sales-channels/{pop_up.get('id')}")
    send("POST", f"/admin/sales-channels/{pop_up.get('id')}", {"is_disabled": True})
    get(f"/admin/sales-channels/{pop_up.get('id')}")
    send("POST", f"/admin/sales-channels/{outlet}", {"description": "Last season"})
    get(f"/admin/sales-channels/{outlet}")
    get("/admin/sales-channels", is_disabled="true")
    send("DELETE", f"/admin/sales-channels/{pop_up.get('id')}")
    get(f"/admin/sales-channels/{pop_up.get('id')}", expect=404)
    depot = item(send("POST", "/admin/stock-locations", {"name": "Depot"}), "stock_location")
    get(f"/admin/stock-locations/{depot.get('id')}")
    send("POST", f"/admin/stock-locations/{depot.get('id')}", {"name": "North depot", "metadata": {"dock": 3}})
    get(f"/admin/stock-locations/{depot.get('id')}")
    get(f"/admin/stock-locations/{MISSING['stock-locations']}", expect=404)
    send("DELETE", f"/admin/stock-locations/{depot.get('id')}")
    get(f"/admin/stock-locations/{depot.get('id')}", expect=404)
    get("/admin/stock-locations")

    # ---- i. the categories, collections and tags after the product writes
    get(f"/admin/product-categories/{shoes.get('id')}")
    send("DELETE", f"/admin/product-categories/{shoes.get('id')}")
    get(f"/admin/product-categories/{shoes.get('id')}", expect=404)
    send("DELETE", f"/admin/collections/{autumn.get('id')}")
    get(f"/admin/collections/{autumn.get('id')}")  # 200 {}
    send("DELETE", f"/admin/product-tags/{linen.get('id')}")
    get("/admin/product-tags", order="value")
    get("/admin/product-categories", order="name", fields="id,name,handle,parent_category_id")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18301")
