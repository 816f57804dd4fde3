"""The API docs at `/schema`, rendered on the server from the OpenAPI document: one HTML page
with every operation, its parameters, request body and answers, and the viewer's stylesheet
(phone first: a wide parameter table scrolls in its own box).
It loads nothing from elsewhere, so it works on a machine without internet (the usual
JavaScript renderers fetch their scripts from a CDN). `/schema/openapi.json` stays the
machine-readable document.
"""

from __future__ import annotations

import html
import re
from typing import Any

import msgspec
from litestar import Request, Router, get
from litestar.exceptions import NotFoundException
from litestar.openapi.plugins import OpenAPIRenderPlugin
from litestar.params import FromPath

from api.openapi import Refined

METHODS = ("get", "post", "put", "patch", "delete")


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


_CODE = re.compile(r"`([^`]+)`")  # in escaped text: a backquote is no markup, so this adds none


def _prose(text: str) -> str:
    """A docstring as paragraphs that reflow to the screen's width: its lines are wrapped for
    a terminal; `code` is drawn as code. A paragraph with an indented or listed line keeps its
    lines as written."""
    parts = []
    for block in (b for b in text.strip().split("\n\n") if b.strip()):
        lines = block.splitlines()
        if any(line.startswith((" ", "\t", "- ", "* ")) for line in lines[1:]):
            parts.append(f'<pre class="doc">{_e(block)}</pre>')
        else:
            words = _e(" ".join(line.strip() for line in lines))
            parts.append("<p>" + _CODE.sub(r"<code>\1</code>", words) + "</p>")
    return "".join(parts)


def _schema_name(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "oneOf" in schema or "anyOf" in schema:
        return " | ".join(_schema_name(s) for s in schema.get("oneOf") or schema.get("anyOf") or ())
    if schema.get("type") == "array":
        return f"list of {_schema_name(schema.get('items') or {})}"
    return str(schema.get("type", "object"))


def _operation(path: str, method: str, op: dict[str, Any]) -> str:
    anchor = _e(op.get("operationId") or f"{method}-{path}")
    parts = [
        f'<section class="op" id="{anchor}">',
        f'<h3><span class="pill">{method.upper()}</span> <code>{_e(path)}</code></h3>',
        f"<p><strong>{_e(op.get('summary', ''))}</strong></p>",
        _prose(op.get("description", "")),
    ]
    params = op.get("parameters") or []
    if params:
        rows = "".join(
            f"<tr><td><code>{_e(p.get('name'))}</code></td><td>{_e(p.get('in'))}</td>"
            f"<td>{'yes' if p.get('required') else 'no'}</td>"
            f"<td>{_e(_schema_name(p.get('schema') or {}))}</td>"
            f"<td>{_e(p.get('description', ''))}</td></tr>"
            for p in params
        )
        parts.append(
            f'<div class="scroll" tabindex="0" role="region" aria-label="parameters of {anchor}">'
            '<table class="grid"><thead><tr><th>parameter</th><th>in</th><th>required</th><th>type</th>'
            f"<th>description</th></tr></thead><tbody>{rows}</tbody></table></div>"
        )
    body = (op.get("requestBody") or {}).get("content") or {}
    for media, content in body.items():
        parts.append(f"<p>Body <code>{_e(media)}</code>: {_e(_schema_name(content.get('schema') or {}))}</p>")
    answers = "".join(
        f"<li><code>{_e(status)}</code> {_e(answer.get('description', ''))}</li>"
        for status, answer in (op.get("responses") or {}).items()
    )
    parts.append(f"<ul>{answers}</ul></section>")
    return "".join(parts)


def _json(value: Any) -> str:
    return msgspec.json.format(msgspec.json.encode(value, enc_hook=str)).decode()


def render_docs(document: dict[str, Any]) -> str:
    info = document.get("info") or {}
    index: list[str] = []
    sections: list[str] = []
    for path, item in (document.get("paths") or {}).items():
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            anchor = _e(op.get("operationId") or f"{method}-{path}")
            index.append(f'<a href="#{anchor}"><code>{method.upper()} {_e(path)}</code></a>')
            sections.append(_operation(path, method, op))
    schemas = (document.get("components") or {}).get("schemas") or {}
    models = "".join(
        f'<details id="schema-{_e(name)}"><summary><code>{_e(name)}</code></summary>'
        f'<pre class="doc">{_e(_json(schema))}</pre></details>'
        for name, schema in schemas.items()
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{_e(info.get('title', 'API'))} API</title>"
        '<link rel="stylesheet" href="/static/viewer.css"><link rel="icon" href="data:,"></head>'
        '<body><header><a class="brand" href="/">Chronicle</a>'
        f'<span class="muted">API {_e(info.get("version", ""))}</span>'
        '<nav aria-label="pages"><a href="/">Games</a><a href="/rulebook">Rules</a>'
        '<a href="/schema/openapi.json">openapi.json</a></nav></header><main>'
        f"<h1>{_e(info.get('title', 'API'))} API</h1>"
        f"{_prose(info.get('description', ''))}"
        f'<h2>Operations</h2><nav class="index" aria-label="operations">{"".join(index)}</nav>'
        f"{''.join(sections)}<h2>Schemas</h2>{models}</main></body></html>"
    )


class OfflineDocsPlugin(OpenAPIRenderPlugin):
    """`/schema`: the docs above, with nothing to fetch from elsewhere."""

    def __init__(self) -> None:
        super().__init__(path="/", favicon="", style="")
        self.refined = Refined()

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return render_docs(self.refined(openapi_schema, request.app)).encode()

    def receive_router(self, router: Router) -> None:
        """Any other path under `/schema` is a 404 problem like every other unknown path (the
        library answers those with its own HTML page)."""
        router.routes = [r for r in router.routes if not r.path.endswith("{path:str}")]
        router.register(_unknown_docs_path)


@get("/{path:str}", include_in_schema=False, sync_to_thread=False)
def _unknown_docs_path(path: FromPath[str]) -> None:
    raise NotFoundException()
