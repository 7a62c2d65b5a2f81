"""memvault long-term memory for LlamaIndex."""
