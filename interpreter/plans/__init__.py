"""Write plans: effects, exemplars, field rules, members, list position (seeds/write-effects.txt)."""
