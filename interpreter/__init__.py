"""capenv build side: evidence, manifest, view, plans and the gate, driven by rule tables."""
