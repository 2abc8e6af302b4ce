"""Seed a fresh Medusa 2.21.2 through its Admin API, then fix the clocks in PostgreSQL.

Usage: seed.py BASE_URL ADMIN_EMAIL ADMIN_PASSWORD PSQL PG_PORT  (run by start.sh on the app port,
not recorded)

What it makes (beside what Medusa makes on its first start: the default store, sales channel and
so on): product categories (Apparel with Shirts and Trousers under it, Accessories), collections
(Summer, Winter, Basics), product tags (cotton, wool, sale, new), product types (clothing,
accessory), regions (Europe in eur, North America in usd), sales channels (Web shop, Outlet), a
stock location (Main warehouse), products (a T-shirt with sizes S/M/L and prices, a wool scarf
with one variant, a draft pair of chinos with sizes and colours), customers (four) and customer
groups (VIP with two customers, Wholesale with one).
start.sh runs it while Medusa makes its ids from a fixed sequence (project/fixed-ids.js), so they
are the same on every start; every created_at/updated_at is then set to 2026-12-01T09:00:00Z.
"""
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "kit"))
from seed_calls import checked_call  # noqa: E402

BASE, EMAIL, PASSWORD, PSQL, PG_PORT = sys.argv[1:6]
CLOCK = "2026-12-01 09:00:00+00"


def main():
    token = checked_call(BASE, "POST", "/auth/user/emailpass", {}, {"email": EMAIL, "password": PASSWORD})["token"]
    headers = {"Authorization": f"Bearer {token}"}

    def post(path, body, key):
        return checked_call(BASE, "POST", path, headers, body, expect=(200, 201))[key]

    apparel = post("/admin/product-categories", {"name": "Apparel", "handle": "apparel", "is_active": True,
                                                 "description": "Things to wear"}, "product_category")
    shirts = post("/admin/product-categories", {"name": "Shirts", "is_active": True,
                                                "parent_category_id": apparel["id"]}, "product_category")
    post("/admin/product-categories", {"name": "Trousers", "is_active": True, "parent_category_id": apparel["id"]},
         "product_category")
    accessories = post("/admin/product-categories", {"name": "Accessories", "is_active": True,
                                                     "is_internal": False}, "product_category")
    summer = post("/admin/collections", {"title": "Summer", "handle": "summer"}, "collection")
    winter = post("/admin/collections", {"title": "Winter", "metadata": {"season": "cold"}}, "collection")
    post("/admin/collections", {"title": "Basics"}, "collection")
    tags = {value: post("/admin/product-tags", {"value": value}, "product_tag") for value in ("cotton", "wool", "sale", "new")}
    clothing = post("/admin/product-types", {"value": "clothing"}, "product_type")
    accessory = post("/admin/product-types", {"value": "accessory", "metadata": {"fragile": False}}, "product_type")
    post("/admin/regions", {"name": "Europe", "currency_code": "eur", "countries": ["de", "fr", "it"]}, "region")
    post("/admin/regions", {"name": "North America", "currency_code": "usd", "countries": ["us", "ca"]}, "region")
    web = post("/admin/sales-channels", {"name": "Web shop", "description": "The online store"}, "sales_channel")
    post("/admin/sales-channels", {"name": "Outlet", "is_disabled": True}, "sales_channel")
    post("/admin/stock-locations", {"name": "Main warehouse", "address": {"address_1": "1 Dock Road",
                                    "city": "Hamburg", "country_code": "de"}}, "stock_location")
    sizes = ["S", "M", "L"]
    post("/admin/products", {
        "title": "Classic T-shirt", "handle": "classic-t-shirt", "status": "published",
        "description": "A cotton T-shirt.", "collection_id": summer["id"], "type_id": clothing["id"],
        "tags": [{"id": tags["cotton"]["id"]}, {"id": tags["new"]["id"]}], "categories": [{"id": shirts["id"]}],
        "sales_channels": [{"id": web["id"]}], "options": [{"title": "Size", "values": sizes}],
        "variants": [{"title": f"T-shirt {size}", "sku": f"TSHIRT-{size}", "options": {"Size": size},
                      "manage_inventory": False,
                      "prices": [{"currency_code": "eur", "amount": 20}, {"currency_code": "usd", "amount": 22}]}
                     for size in sizes]}, "product")
    post("/admin/products", {
        "title": "Wool scarf", "status": "published", "collection_id": winter["id"], "type_id": accessory["id"],
        "tags": [{"id": tags["wool"]["id"]}], "categories": [{"id": accessories["id"]}], "weight": 150,
        "options": [{"title": "Default", "values": ["One size"]}],
        "variants": [{"title": "Scarf", "sku": "SCARF-1", "options": {"Default": "One size"},
                      "manage_inventory": False, "prices": [{"currency_code": "eur", "amount": 35}]}]}, "product")
    post("/admin/products", {
        "title": "Chinos", "status": "draft", "type_id": clothing["id"], "metadata": {"fit": "slim"},
        "options": [{"title": "Size", "values": ["30", "32"]}, {"title": "Colour", "values": ["Khaki", "Navy"]}],
        "variants": [{"title": f"Chinos {size} {colour}", "options": {"Size": size, "Colour": colour},
                      "manage_inventory": False, "prices": [{"currency_code": "eur", "amount": 60}]}
                     for size in ("30", "32") for colour in ("Khaki", "Navy")]}, "product")
    customers = [post("/admin/customers", {"email": email, "first_name": first, "last_name": last,
                                           **({"company_name": company} if company else {})}, "customer")
                 for email, first, last, company in (
                     ("ada@capenv.test", "Ada", "Lovelace", "Analytical Engines"),
                     ("grace@capenv.test", "Grace", "Hopper", None),
                     ("alan@capenv.test", "Alan", "Turing", None),
                     ("edsger@capenv.test", "Edsger", "Dijkstra", "Structured Ltd"))]
    vip = post("/admin/customer-groups", {"name": "VIP", "metadata": {"discount": "10%"}}, "customer_group")
    wholesale = post("/admin/customer-groups", {"name": "Wholesale"}, "customer_group")
    post(f"/admin/customer-groups/{vip['id']}/customers", {"add": [customers[0]["id"], customers[1]["id"]]},
         "customer_group")
    post(f"/admin/customer-groups/{wholesale['id']}/customers", {"add": [customers[3]["id"]]}, "customer_group")
    # Every table's clocks, whatever Medusa made them in: one fixed instant on every start.
    clocks = f"""DO $$ DECLARE t record; BEGIN
      FOR t IN SELECT c.table_name FROM information_schema.columns c
               JOIN information_schema.columns u ON u.table_name = c.table_name AND u.table_schema = c.table_schema
               JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
               WHERE c.table_schema = 'public' AND c.column_name = 'created_at' AND u.column_name = 'updated_at'
                 AND tb.table_type = 'BASE TABLE'
      LOOP EXECUTE format('UPDATE %I SET created_at = %L, updated_at = %L', t.table_name, '{CLOCK}', '{CLOCK}');
      END LOOP; END $$;"""
    subprocess.run([PSQL, "-h", "127.0.0.1", "-p", PG_PORT, "-U", "postgres", "-d", "medusa",
                    "-v", "ON_ERROR_STOP=1", "-q", "-c", clocks], check=True, capture_output=True)


if __name__ == "__main__":
    main()
