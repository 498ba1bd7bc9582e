"""The web app: thin Flask views over the tables service."""
