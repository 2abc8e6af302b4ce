"""Refusals of a write for the entity it names, not for the tool or the call."""

ENTITY_REFUSALS = ("not editable", "holds a copy of the", "a copy of its", "the entity does not hold them",
                   "which the entity holds: the application may keep it", "delete or change those first",
                   "names anew at each read of its list", "as it holds it now, under the same",
                   "is copied by held")
"""The application keeps the entity as it is (update-protected), another held entity holds a copy of
members the update changes (serving/writes/nested_copies), held entities naming it hold a copy of
a member the update changes (serving/writes/reference_copies: Medusa's products copy their
collection's title), or the entity lacks members every recorded
answer showed (GNS3's templates of another kind, ZenML's tags only listed: serving/writes/answers), or
an object sent leaves out a key the entity holds in that member (serving/writes/object_merges:
Medusa's metadata), or the application names the entity anew at each read (serving/reads/redrawn:
Alerta's built-in perms), or another type's entity under its id shows a name the write changes
(serving/writes/nested_copies: one search hit), or another state type's entities under its id copy
a member the update changes (serving/writes/held_copies: ZenML's model versions listed under their model).
A caller then writes another entity."""


def refused_for_the_entity(message: str | None) -> bool:
    """Whether a refusal's message says the entity it named cannot take the write (``ENTITY_REFUSALS``)."""
    return bool(message) and any(reason in message for reason in ENTITY_REFUSALS)
