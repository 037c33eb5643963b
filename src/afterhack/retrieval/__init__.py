"""Finding claims: search terms, BM25 and rank fusion, vectors, hybrid search and the neighbours
conflict checks compare with.
"""
