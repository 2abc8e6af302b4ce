"""capenv serving side: runs bundle plans against a store; never imports the evaluator."""
