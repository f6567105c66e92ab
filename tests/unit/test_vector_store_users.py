"""The vector store's partition by user, on a real Chroma directory: a collection per user,
the user filter inside every query, writes and deletes confined to the user, and the
LangChain surfaces (the user's VectorStore, a retriever)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import chromadb
import numpy as np
import pytest
from chromadb.config import Settings as ChromaSettings
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.vectorstores import VectorStore as LangChainVectorStore

import core.vector_store as vector_store
from core.vector_store import COLLECTION, VectorStore, collection_name

DIM = 16


def _vec(seed: int) -> list[float]:
    v = np.random.default_rng(seed).standard_normal(DIM)
    return (v / np.linalg.norm(v)).tolist()


def _doc(user: str, doc: str, texts: list[str], seed: int = 0, doc_hash: str = "h"):
    ids = [f"{user}:{doc}:{i}" for i in range(len(texts))]
    metas = [
        {
            "user_id": user,
            "doc_id": doc,
            "doc_type": "resume",
            "section": "경력",
            "doc_hash": doc_hash,
            "chunk": i,
        }
        for i in range(len(texts))
    ]
    vectors = [_vec(seed + i) for i in range(len(texts))]
    return user, doc, ids, texts, vectors, metas


def _collections(path: Path) -> dict[str, int]:
    client = chromadb.PersistentClient(
        path=str(path), settings=ChromaSettings(anonymized_telemetry=False)
    )
    return {c.name: c.count() for c in client.list_collections()}


async def test_each_user_has_a_collection_of_their_own(tmp_path):
    store = VectorStore(path=str(tmp_path))
    await store.replace(*_doc("u1", "d1", ["a", "b", "c"]))
    await store.replace(*_doc("u1", "d2", ["d"], seed=10))
    await store.replace(*_doc("u2", "d1", ["e", "f"], seed=20))
    assert _collections(tmp_path) == {collection_name("u1"): 4, collection_name("u2"): 2}
    client = chromadb.PersistentClient(
        path=str(tmp_path), settings=ChromaSettings(anonymized_telemetry=False)
    )
    hnsw = client.get_collection(collection_name("u1")).configuration["hnsw"]
    assert hnsw["space"] == "cosine"
    assert hnsw["sync_threshold"] == 20  # the index files kept fresh (Chroma's default: 1000)
    # A user who stored nothing finds nothing, and reading creates no collection.
    assert await store.query("u3", _vec(0), 5) == []
    assert await store.stored_hash("u3", "d1") == (None, 0)
    assert await store.document_text("u3", "d1") == ""
    assert set(_collections(tmp_path)) == {collection_name("u1"), collection_name("u2")}


async def test_replacing_a_document_is_per_user_and_drops_its_stale_chunks(tmp_path):
    store = VectorStore(path=str(tmp_path))
    assert await store.replace(*_doc("u1", "d1", ["one", "two", "three"])) == 0
    await store.replace(*_doc("u1", "d2", ["other"], seed=30))
    await store.replace(*_doc("u2", "d1", ["theirs 1", "theirs 2"], seed=40))
    replaced = await store.replace(*_doc("u1", "d1", ["new one"], seed=50, doc_hash="h2"))
    assert replaced == 3
    assert await store.stored_hash("u1", "d1") == ("h2", 1)
    assert await store.document_text("u1", "d1") == "new one"
    mine = await store.query("u1", _vec(50), 10)
    assert sorted((h.doc_id, h.text) for h in mine) == [("d1", "new one"), ("d2", "other")]
    assert mine[0].text == "new one" and mine[0].score == pytest.approx(1.0, abs=1e-4)
    theirs = await store.query("u2", _vec(50), 10)
    assert sorted(h.text for h in theirs) == ["theirs 1", "theirs 2"]  # same doc_id, kept
    # An empty replacement removes the document and nothing else of the user's.
    assert await store.replace("u1", "d1", [], [], [], []) == 1
    assert [h.doc_id for h in await store.query("u1", _vec(50), 10)] == ["d2"]


async def test_the_user_filter_is_inside_the_query_even_in_a_shared_collection(
    tmp_path, monkeypatch
):
    """Two users forced into one collection (as a name collision would): the other user's
    closer chunks neither appear nor crowd the user's own out of the top k."""
    monkeypatch.setattr(vector_store, "collection_name", lambda user: f"{COLLECTION}-shared")
    store = VectorStore(path=str(tmp_path))
    query = _vec(7)
    near = [(np.array(query) + 0.01 * np.array(_vec(100 + i))).tolist() for i in range(5)]
    user, doc, ids, texts, _, metas = _doc("u2", "d1", [f"near {i}" for i in range(5)])
    await store.replace(user, doc, ids, texts, near, metas)
    await store.replace(*_doc("u1", "d1", ["mine 1", "mine 2"], seed=200))
    hits = await store.query("u1", query, 2)
    assert sorted(h.text for h in hits) == ["mine 1", "mine 2"]
    assert [h.text[:4] for h in await store.query("u2", query, 1)] == ["near"]
    assert await store.document_text("u1", "d1") == "mine 1\nmine 2"
    assert await store.stored_hash("u1", "d1") == ("h", 2)


async def test_chunks_that_name_another_user_or_document_are_refused(tmp_path):
    store = VectorStore(path=str(tmp_path))
    user, doc, ids, texts, vectors, metas = _doc("u1", "d1", ["a"])
    with pytest.raises(ValueError):
        await store.replace("u2", doc, ids, texts, vectors, metas)
    with pytest.raises(ValueError):
        await store.replace(user, "d9", ids, texts, vectors, metas)
    assert _collections(tmp_path) == {}


async def test_a_collection_deleted_elsewhere_is_reopened_not_an_error(tmp_path):
    store, other = VectorStore(path=str(tmp_path)), VectorStore(path=str(tmp_path))
    await store.replace(*_doc("u1", "d1", ["a"]))
    assert len(await store.query("u1", _vec(0), 5)) == 1  # the collection is now cached
    assert await other.delete_user("u1") is True
    assert await other.delete_user("u1") is False
    assert await store.query("u1", _vec(0), 5) == []
    assert await store.replace(*_doc("u1", "d1", ["b"], seed=5)) == 0
    assert [h.text for h in await store.query("u1", _vec(5), 5)] == ["b"]


async def test_deleting_a_user_leaves_the_others(tmp_path):
    store = VectorStore(path=str(tmp_path))
    await store.replace(*_doc("u1", "d1", ["a"]))
    await store.replace(*_doc("u2", "d1", ["b"]))
    assert await store.delete_user("u1") is True
    assert await store.query("u1", _vec(0), 5) == []
    assert [h.text for h in await store.query("u2", _vec(0), 5)] == ["b"]
    assert set(_collections(tmp_path)) == {collection_name("u2")}


def test_collection_names_fit_chromas_rules_for_any_user_id():
    ids = ["u1", "kim.j@corp.example", "kim.j-corp.example", "a", "_" * 128, "9.9.9.9"]
    names = [collection_name(u) for u in ids]
    assert len(set(names)) == len(ids)
    for name in names:
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{1,510}[A-Za-z0-9]", name), name
        assert ".." not in name
    assert collection_name("u1") == collection_name("u1")  # stable across processes


async def test_user_ids_with_dots_and_at_signs_store_and_find(tmp_path):
    store = VectorStore(path=str(tmp_path))
    await store.replace(*_doc("kim.j@corp.example", "d1", ["a"]))
    await store.replace(*_doc("kim.j-corp.example", "d1", ["b"]))
    assert [h.text for h in await store.query("kim.j@corp.example", _vec(0), 5)] == ["a"]
    assert [h.text for h in await store.query("kim.j-corp.example", _vec(0), 5)] == ["b"]


async def test_the_langchain_retriever_searches_only_the_users_documents(tmp_path):
    embeddings = DeterministicFakeEmbedding(size=32)
    store = VectorStore(path=str(tmp_path), embeddings=embeddings)
    texts = ["Kafka 운영 경험", "Spring Boot 주문 API", "React 화면"]
    for user in ("u1", "u2"):
        # vectors=None: the store embeds through its LangChain Embeddings (add_texts).
        user_, doc, ids, _, _, metas = _doc(user, "d1", texts)
        await store.replace(user_, doc, ids, texts, None, metas)
    assert isinstance(store.store_for("u1"), LangChainVectorStore)
    found = await store.retriever("u1", k=2).ainvoke("Spring Boot 주문 API")
    assert found[0].page_content == "Spring Boot 주문 API" and len(found) == 2
    assert {d.metadata["user_id"] for d in found} == {"u1"}
    postings = store.retriever("u1", k=5, doc_types=["posting"]).invoke("Kafka 운영 경험")
    assert postings == []  # the doc_type filter rides with the user filter
    hits = await store.query("u2", embeddings.embed_query("React 화면"), 1)
    assert [h.text for h in hits] == ["React 화면"]
    plain = VectorStore(path=str(tmp_path))  # as the services build it: no embeddings
    with pytest.raises(ValueError):
        plain.retriever("u1")
    passed = plain.retriever("u2", k=1, embeddings=embeddings).invoke("Kafka 운영 경험")
    assert [(d.page_content, d.metadata["user_id"]) for d in passed] == [("Kafka 운영 경험", "u2")]


async def test_open_collections_are_bounded(tmp_path):
    store = VectorStore(path=str(tmp_path), open_collections=2)
    for i in range(4):
        await store.replace(*_doc(f"u{i}", "d1", ["a"]))
    cached: dict[str, Any] = store._stores
    assert list(cached) == [collection_name("u2"), collection_name("u3")]
    assert [h.text for h in await store.query("u0", _vec(0), 5)] == ["a"]  # reopened
    assert list(cached)[-1] == collection_name("u0") and len(cached) == 2


async def test_the_shared_collection_of_earlier_versions_migrates_to_users(tmp_path):
    client = chromadb.PersistentClient(
        path=str(tmp_path), settings=ChromaSettings(anonymized_telemetry=False)
    )
    shared = client.get_or_create_collection(
        COLLECTION, metadata={"hnsw:space": "cosine"}, embedding_function=None
    )
    rows = [_doc("u1", "d1", ["a", "b"]), _doc("u2", "d1", ["c"], seed=9)]
    for _, _, ids, texts, vectors, metas in rows:
        shared.add(ids=ids, documents=texts, embeddings=vectors, metadatas=metas)
    store = VectorStore(path=str(tmp_path))
    assert await store.query("u1", _vec(0), 5) == []  # not visible before the migration
    assert await store.migrate_shared_collection() == 3
    assert _collections(tmp_path) == {collection_name("u1"): 2, collection_name("u2"): 1}
    hits = await store.query("u1", _vec(0), 5)
    assert sorted(h.text for h in hits) == ["a", "b"] and hits[0].text == "a"
    assert hits[0].score == pytest.approx(1.0, abs=1e-4)
    assert await store.stored_hash("u2", "d1") == ("h", 1)
    assert await store.migrate_shared_collection() == 0  # nothing left to move


async def test_chunks_holding_the_rarer_asked_word_come_first(tmp_path):
    store = VectorStore(path=str(tmp_path))
    texts = [
        "카카오 선물하기 주문 API",
        "카카오 지원 동기",
        "카카오톡 채널 운영",
        "카카오 우대사항: Kafka 운영 경험",
        "카카오 복지",
    ]
    await store.replace(*_doc("u1", "d1", texts))
    # the query vector is nearest to the chunks without the rare word
    query = _vec(0)
    hits = await store.containing("u1", ["카카오", "Kafka"], query, 2)
    assert hits[0].text == "카카오 우대사항: Kafka 운영 경험"
    # among chunks holding the same words, the nearest first
    assert hits[1].text == "카카오 선물하기 주문 API"


async def test_a_posting_chunk_holds_its_company_though_its_lines_do_not_say_it(tmp_path):
    store = VectorStore(path=str(tmp_path))
    user, doc, ids, texts, vectors, metas = _doc(
        "u1", "kakao", ["[카카오] 백엔드 개발자 채용", "[우대사항]\n- Kafka 운영 경험"]
    )
    metas = [{**m, "doc_type": "posting", "company": "카카오"} for m in metas]
    await store.replace(user, doc, ids, texts, vectors, metas)
    # other documents say 카카오 or Kafka in their text, nearer the query
    other = _doc("u1", "cover", ["카카오톡 선물하기 지원 동기", "Kafka 주문 이벤트 처리"], seed=40)
    await store.replace(*other)
    query = other[4][0]
    hits = await store.containing("u1", ["카카오", "Kafka"], query, 1)
    assert hits[0].text == "[우대사항]\n- Kafka 운영 경험"
