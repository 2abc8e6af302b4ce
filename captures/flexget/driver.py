#!/usr/bin/env python3
"""Scenario driver for FlexGet 3.22.8's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:43031 --mode capture [-v]

Every call sends `Authorization: Token <start.sh's throwaway token>`. The seed (seed.py, run by
start.sh, not recorded): movie lists Watchlist (1: Arrival 1, Heat 2, Paterson 3) and Classics
(2: Casablanca 4, Metropolis 5), entry lists downloads (1: entries 1-3) and archive (2: entry 4),
pending list approvals (1: entries 1 approved, 2), series Example Show (1) and Second Show (2),
seen entries 1-3 and history 1-3 from the task seed-history; every seeded date is 2024-01-01.
Ids are sequential integers, so the driver knows them; new ones come from the create answers.
Lists answer JSON arrays with Total-Count, Count and Link headers (page, per_page, sort_by, order).
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = "capenv-flexget-throwaway-token-0001"
API = "/api"


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=TOKEN, scheme="Token")


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", API + path, params=params or None, expect=expect)[1]

    def send(method, path, body=None, expect=None, raw=None):
        return call(method, API + path, body, raw=raw, expect=expect)[1]

    # ---- a. reads before any write: the seed, paging and absences
    get("/server/version/")
    get("/movie_list/")
    get("/movie_list/1/")
    get("/movie_list/2/")
    get("/movie_list/", name="Classics")
    get("/movie_list/1/movies/")
    get("/movie_list/2/movies/")
    get("/movie_list/1/movies/1/")
    get("/movie_list/2/movies/5/")
    get("/movie_list/1/movies/", sort_by="year", order="asc")
    get("/movie_list/1/movies/", per_page=2, page=1)
    get("/movie_list/1/movies/", per_page=2, page=2)
    get("/movie_list/identifiers/")
    get("/movie_list/99/", expect=404)
    get("/movie_list/99/movies/", expect=404)
    get("/movie_list/1/movies/99/", expect=404)
    get("/entry_list/")
    get("/entry_list/1/")
    get("/entry_list/1/entries/")
    get("/entry_list/2/entries/")
    get("/entry_list/1/entries/2/")
    get("/entry_list/1/entries/", sort_by="id", order="asc")
    get("/entry_list/99/", expect=404)
    get("/entry_list/1/entries/99/", expect=404)
    get("/pending_list/")
    get("/pending_list/1/")
    get("/pending_list/1/entries/")
    get("/pending_list/1/entries/1/")
    get("/pending_list/1/entries/", sort_by="id", order="asc")
    get("/pending_list/99/", expect=404)
    get("/series/", in_config="all")
    get("/series/1/")
    get("/series/2/")
    get("/series/1/episodes/")
    get("/series/99/", expect=404)
    get("/seen/")
    get("/seen/1/")
    get("/seen/", sort_by="id", order="asc")
    get("/seen/99/", expect=404)
    get("/history/")
    get("/history/", task="seed-history", sort_by="id", order="asc")
    get("/history/", per_page=2, page=2)
    get("/failed/")
    get("/failed/1/", expect=404)
    get("/tasks/")
    get("/tasks/movies-from-list/")
    get("/tasks/no-such-task/", expect=404)

    # ---- b. movie lists: a new list, its movies, updates, duplicates, deletes (also a list with movies)
    weekend = send("POST", "/movie_list/", {"name": "Weekend"}, expect=201)["id"]
    get(f"/movie_list/{weekend}/")
    get("/movie_list/")
    get("/movie_list/", name="Weekend")
    send("POST", "/movie_list/", {"name": "Weekend"}, expect=409)
    send("POST", "/movie_list/", {"name": 42}, expect=422)
    later = send("POST", "/movie_list/", {"name": "Later"}, expect=201)["id"]
    get(f"/movie_list/{later}/")
    get("/movie_list/")
    m1 = send("POST", f"/movie_list/{weekend}/movies/", {"movie_name": "Stalker", "movie_year": 1979,
              "movie_identifiers": [{"imdb_id": "tt0079944"}]}, expect=201)["id"]
    get(f"/movie_list/{weekend}/movies/{m1}/")
    get(f"/movie_list/{weekend}/movies/")
    m2 = send("POST", f"/movie_list/{weekend}/movies/", {"movie_name": "Moon", "movie_year": 2009,
              "movie_identifiers": [{"imdb_id": "tt1182345"}, {"tmdb_id": 17431}]}, expect=201)["id"]
    get(f"/movie_list/{weekend}/movies/{m2}/")
    get(f"/movie_list/{weekend}/movies/")
    m3 = send("POST", f"/movie_list/{weekend}/movies/", {"movie_name": "Solaris"}, expect=201)["id"]
    get(f"/movie_list/{weekend}/movies/{m3}/")
    get(f"/movie_list/{weekend}/movies/", sort_by="id", order="asc")
    get(f"/movie_list/{weekend}/movies/", per_page=2)
    send("POST", f"/movie_list/{weekend}/movies/", {"movie_name": "Stalker", "movie_year": 1979}, expect=409)
    send("POST", f"/movie_list/{weekend}/movies/", {"movie_year": 1979}, expect=422)
    send("POST", f"/movie_list/{weekend}/movies/", {"movie_name": "Bad Ids",
         "movie_identifiers": [{"no_such_id": "x"}]}, expect=400)
    send("POST", "/movie_list/99/movies/", {"movie_name": "Nowhere"}, expect=404)
    m4 = send("POST", f"/movie_list/{later}/movies/", {"movie_name": "Ran", "movie_year": 1985,
              "movie_identifiers": [{"imdb_id": "tt0089881"}]}, expect=201)["id"]
    get(f"/movie_list/{later}/movies/{m4}/")
    get(f"/movie_list/{later}/movies/")
    send("PUT", f"/movie_list/{weekend}/movies/{m3}/", [{"imdb_id": "tt0069293"}], expect=200)
    get(f"/movie_list/{weekend}/movies/{m3}/")
    get(f"/movie_list/{weekend}/movies/")
    send("PUT", f"/movie_list/{weekend}/movies/{m1}/", [{"imdb_id": "tt0079944"}, {"tmdb_id": 1398}], expect=200)
    get(f"/movie_list/{weekend}/movies/{m1}/")
    send("PUT", "/movie_list/1/movies/3/", [{"tmdb_id": 370755}], expect=200)
    get("/movie_list/1/movies/3/")
    get("/movie_list/1/movies/")
    send("PUT", f"/movie_list/{weekend}/movies/99/", [{"imdb_id": "tt0000001"}], expect=404)
    send("PUT", f"/movie_list/{weekend}/movies/{m2}/", {"imdb_id": "tt1182345"}, expect=422)
    send("DELETE", f"/movie_list/{weekend}/movies/{m2}/", expect=200)
    get(f"/movie_list/{weekend}/movies/{m2}/", expect=404)
    get(f"/movie_list/{weekend}/movies/")
    send("DELETE", f"/movie_list/{weekend}/movies/{m2}/", expect=404)
    send("DELETE", "/movie_list/1/movies/2/", expect=200)
    get("/movie_list/1/movies/2/", expect=404)
    get("/movie_list/1/movies/")
    send("DELETE", f"/movie_list/{weekend}/", expect=200)
    get(f"/movie_list/{weekend}/", expect=404)
    get(f"/movie_list/{weekend}/movies/", expect=404)
    get(f"/movie_list/{weekend}/movies/{m1}/", expect=404)
    get("/movie_list/")
    send("DELETE", f"/movie_list/{weekend}/", expect=404)
    send("DELETE", f"/movie_list/{later}/movies/{m4}/", expect=200)
    get(f"/movie_list/{later}/movies/")
    send("DELETE", f"/movie_list/{later}/", expect=200)
    get(f"/movie_list/{later}/", expect=404)
    get("/movie_list/")

    # ---- c. entry lists: entries with title and original_url, overrides, deletes (also of a list with entries)
    queue = send("POST", "/entry_list/", {"name": "queue"}, expect=201)["id"]
    get(f"/entry_list/{queue}/")
    get("/entry_list/")
    get("/entry_list/", name="queue")
    send("POST", "/entry_list/", {"name": "queue"}, expect=409)
    send("POST", "/entry_list/", {"name": ["queue"]}, expect=422)
    e1 = send("POST", f"/entry_list/{queue}/entries/", {"title": "Night.Sky.2022.1080p",
              "original_url": "http://127.0.0.1:9/night-sky"}, expect=201)["id"]
    get(f"/entry_list/{queue}/entries/{e1}/")
    get(f"/entry_list/{queue}/entries/")
    e2 = send("POST", f"/entry_list/{queue}/entries/", {"title": "River.Walk.2018.720p",
              "original_url": "http://127.0.0.1:9/river-walk", "quality": "720p"}, expect=201)["id"]
    get(f"/entry_list/{queue}/entries/{e2}/")
    get(f"/entry_list/{queue}/entries/")
    e3 = send("POST", f"/entry_list/{queue}/entries/", {"title": "Alpine.Trail.2020.2160p",
              "original_url": "http://127.0.0.1:9/alpine-trail"}, expect=201)["id"]
    get(f"/entry_list/{queue}/entries/{e3}/")
    get(f"/entry_list/{queue}/entries/", sort_by="id", order="asc")
    get(f"/entry_list/{queue}/entries/", per_page=2, page=2)
    send("POST", f"/entry_list/{queue}/entries/", {"title": "Night.Sky.2022.1080p",
         "original_url": "http://127.0.0.1:9/night-sky-again"}, expect=409)
    send("POST", f"/entry_list/{queue}/entries/", {"title": "No.Url.2020"}, expect=422)
    send("POST", "/entry_list/99/entries/", {"title": "Lost.2020", "original_url": "http://127.0.0.1:9/lost"},
         expect=404)
    send("PUT", f"/entry_list/{queue}/entries/{e1}/", {"title": "Night.Sky.2022.2160p",
         "original_url": "http://127.0.0.1:9/night-sky-uhd"}, expect=201)
    get(f"/entry_list/{queue}/entries/{e1}/")
    get(f"/entry_list/{queue}/entries/")
    send("PUT", "/entry_list/1/entries/3/", {"title": "Open.Movie.2008.720p",
         "original_url": "http://127.0.0.1:9/open-movie-720"}, expect=201)
    get("/entry_list/1/entries/3/")
    get("/entry_list/1/entries/")
    send("PUT", f"/entry_list/{queue}/entries/99/", {"title": "X", "original_url": "http://127.0.0.1:9/x"},
         expect=404)
    send("PUT", f"/entry_list/{queue}/entries/{e2}/", {"title": "River.Walk.2018.1080p"}, expect=422)
    send("DELETE", f"/entry_list/{queue}/entries/{e2}/", expect=200)
    get(f"/entry_list/{queue}/entries/{e2}/", expect=404)
    get(f"/entry_list/{queue}/entries/")
    send("DELETE", f"/entry_list/{queue}/entries/{e2}/", expect=404)
    send("DELETE", "/entry_list/1/entries/1/", expect=200)
    get("/entry_list/1/entries/1/", expect=404)
    get("/entry_list/1/entries/")
    send("DELETE", "/entry_list/2/", expect=200)
    get("/entry_list/2/", expect=404)
    get("/entry_list/2/entries/", expect=404)
    get("/entry_list/2/entries/4/", expect=404)
    get("/entry_list/")
    send("DELETE", "/entry_list/2/", expect=404)

    # ---- d. pending list: entries, approve and reject, deletes
    review = send("POST", "/pending_list/", {"name": "review"}, expect=201)["id"]
    get(f"/pending_list/{review}/")
    get("/pending_list/")
    send("POST", "/pending_list/", {"name": "review"}, expect=409)
    p1 = send("POST", f"/pending_list/{review}/entries/", {"title": "Coastline.2017.1080p",
              "original_url": "http://127.0.0.1:9/coastline"}, expect=201)["id"]
    get(f"/pending_list/{review}/entries/{p1}/")
    get(f"/pending_list/{review}/entries/")
    p2 = send("POST", f"/pending_list/{review}/entries/", {"title": "Desert.Light.2019.720p",
              "original_url": "http://127.0.0.1:9/desert-light"}, expect=201)["id"]
    get(f"/pending_list/{review}/entries/{p2}/")
    get(f"/pending_list/{review}/entries/")
    send("POST", f"/pending_list/{review}/entries/", {"title": "Coastline.2017.1080p",
         "original_url": "http://127.0.0.1:9/coastline"}, expect=409)
    send("PUT", f"/pending_list/{review}/entries/{p1}/", {"operation": "approve"}, expect=201)
    get(f"/pending_list/{review}/entries/{p1}/")
    get(f"/pending_list/{review}/entries/")
    get(f"/pending_list/{review}/entries/", sort_by="approved", order="desc")
    send("PUT", "/pending_list/1/entries/1/", {"operation": "reject"}, expect=201)
    get("/pending_list/1/entries/1/")
    get("/pending_list/1/entries/")
    send("PUT", f"/pending_list/{review}/entries/{p2}/", {"operation": "promote"}, expect=422)
    send("PUT", f"/pending_list/{review}/entries/99/", {"operation": "approve"}, expect=404)
    send("DELETE", f"/pending_list/{review}/entries/{p2}/", expect=200)
    get(f"/pending_list/{review}/entries/{p2}/", expect=404)
    get(f"/pending_list/{review}/entries/")
    send("DELETE", f"/pending_list/{review}/", expect=200)
    get(f"/pending_list/{review}/", expect=404)
    get(f"/pending_list/{review}/entries/", expect=404)
    get("/pending_list/")

    # ---- e. series: creates with a begin episode, updates, deletes
    third = send("POST", "/series/", {"name": "Third Show", "begin_episode": "S03E01"}, expect=201)["id"]
    get(f"/series/{third}/")
    get("/series/", in_config="all")
    get(f"/series/{third}/episodes/")
    send("POST", "/series/", {"name": "Third Show"}, expect=409)
    send("POST", "/series/", {"begin_episode": "S01E01"}, expect=422)
    plain = send("POST", "/series/", {"name": "Plain Show"}, expect=201)["id"]
    get(f"/series/{plain}/")
    get("/series/", in_config="all")
    send("PUT", f"/series/{third}/", {"alternate_names": ["Show Three", "The Third"]}, expect=200)
    get(f"/series/{third}/")
    send("PUT", f"/series/{third}/", {"begin_episode": "S03E04"}, expect=200)
    get(f"/series/{third}/")
    get(f"/series/{third}/episodes/")
    send("PUT", "/series/1/", {"alternate_names": ["Example"]}, expect=200)
    get("/series/1/")
    get("/series/", in_config="all")
    send("PUT", "/series/99/", {"alternate_names": ["Nobody"]}, expect=404)
    send("DELETE", f"/series/{plain}/", expect=200)
    get(f"/series/{plain}/", expect=404)
    get("/series/", in_config="all")
    send("DELETE", f"/series/{plain}/", expect=404)

    # ---- f. seen, history and failed
    send("DELETE", "/seen/2/", expect=200)
    get("/seen/2/", expect=404)
    get("/seen/")
    send("DELETE", "/seen/2/", expect=404)
    get("/seen/", value="Third.Feature.2015.2160p.HDR")
    get("/history/")
    send("DELETE", "/failed/1/", expect=404)
    get("/failed/")

    # ---- g. the end state
    get("/movie_list/")
    get("/movie_list/1/movies/")
    get("/entry_list/")
    get("/entry_list/1/entries/")
    get("/pending_list/")
    get("/pending_list/1/entries/")
    get("/series/", in_config="all")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:43031")
