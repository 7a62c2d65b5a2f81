"""memvault long-term memory for LangChain and LangGraph."""
