"""What names in a document mean (definitions and references), per kind."""
