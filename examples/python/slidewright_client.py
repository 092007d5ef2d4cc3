#!/usr/bin/env python3
"""Slidewright over gRPC from Python: upload a template, analyze it, generate a deck,
poll until it is done and download the .pptx.

Uses the generated stubs in proto/gen/python (`npm run gen:stubs`) and the grpcio and
protobuf packages (Debian: python3-grpcio python3-protobuf; pip: grpcio protobuf).

    PYTHONPATH=proto/gen/python python3 examples/python/slidewright_client.py \
        --address 127.0.0.1:50051 --api-key "$KEY" --template brand.pptx -o deck.pptx

The address is the core's gRPC port (GRPC_PORT, 50051 by default; loopback only in
embedded mode). The API key travels as the `x-api-key` metadata. The last line printed is
a JSON summary of the run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.request
from typing import Any, Callable, Dict, List, Optional

# The generated stubs live in proto/gen/python; find them from a checkout without PYTHONPATH.
_HERE = os.path.dirname(os.path.abspath(__file__))
_STUBS = os.path.join(_HERE, "..", "..", "proto", "gen", "python")
if os.path.isdir(_STUBS) and _STUBS not in sys.path:
    sys.path.insert(0, os.path.abspath(_STUBS))

import grpc  # noqa: E402
from google.protobuf import json_format  # noqa: E402

from google.api import httpbody_pb2  # noqa: E402
from google.rpc import error_details_pb2, status_pb2  # noqa: E402
from slidewright.v1 import (  # noqa: E402
    analysis_pb2,
    analysis_service_pb2,
    analysis_service_pb2_grpc,
    content_pb2,
    presentation_service_pb2,
    presentation_service_pb2_grpc,
    template_pb2,
    template_service_pb2,
    template_service_pb2_grpc,
)

PPTX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
FINAL_GENERATION = ("completed", "partial", "failed")
FINAL_ANALYSIS = ("completed", "failed", "cancelled")


class SlidewrightError(Exception):
    """An API call failed; the message says which and why."""


def describe_rpc_error(err: grpc.RpcError) -> str:
    """Turns a gRPC error into one readable message, listing each field violation of an
    INVALID_ARGUMENT (google.rpc.BadRequest in grpc-status-details-bin)."""
    code = err.code().name if hasattr(err, "code") else "UNKNOWN"
    text = f"{code}: {err.details() if hasattr(err, 'details') else err}"
    for key, value in (err.trailing_metadata() or []) if hasattr(err, "trailing_metadata") else []:
        if key != "grpc-status-details-bin":
            continue
        status = status_pb2.Status.FromString(value)
        for detail in status.details:
            if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                for v in bad.field_violations:
                    text += f"\n  {v.field}: {v.description}"
    return text


class Client:
    """The four Slidewright gRPC services behind one channel, with the API key attached."""

    def __init__(self, address: str, api_key: str, timeout: float = 60.0) -> None:
        self.channel = grpc.insecure_channel(address)
        self.metadata = (("x-api-key", api_key),)
        self.timeout = timeout
        self.templates = template_service_pb2_grpc.TemplateServiceStub(self.channel)
        self.analyses = analysis_service_pb2_grpc.AnalysisServiceStub(self.channel)
        self.presentations = presentation_service_pb2_grpc.PresentationServiceStub(self.channel)

    def call(self, method: Callable[..., Any], request: Any) -> Any:
        """One unary call with the key and a deadline; errors become SlidewrightError."""
        try:
            return method(request, metadata=self.metadata, timeout=self.timeout)
        except grpc.RpcError as err:  # pragma: no cover - exercised against a live service
            raise SlidewrightError(describe_rpc_error(err)) from None

    def close(self) -> None:
        self.channel.close()


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def upload(client: Client, path: str, via: str) -> str:
    """Creates the template record and sends the bytes: to the signed upload URL (HTTP PUT,
    no key needed) or over gRPC (UploadTemplateContent with a google.api.HttpBody)."""
    with open(path, "rb") as f:
        data = f.read()
    created = client.call(
        client.templates.CreateTemplate,
        template_service_pb2.CreateTemplateRequest(
            filename=os.path.basename(path),
            file_size=len(data),
            metadata=template_pb2.TemplateMetadata(category="examples", tags=["python"]),
        ),
    )
    log(f"template {created.template_id}: uploading {len(data)} bytes via {via}")
    if via == "signed-url":
        req = urllib.request.Request(
            created.upload_url, data=data, method="PUT", headers={"content-type": PPTX_MEDIA_TYPE}
        )
        with urllib.request.urlopen(req, timeout=client.timeout) as res:  # noqa: S310 - URL from the API
            body = json.loads(res.read().decode("utf-8"))
        if not body.get("confirmed"):
            raise SlidewrightError(f"upload refused: {body.get('error') or body}")
    else:
        confirmed = client.call(
            client.templates.UploadTemplateContent,
            template_service_pb2.UploadTemplateContentRequest(
                template_id=created.template_id,
                file=httpbody_pb2.HttpBody(content_type=PPTX_MEDIA_TYPE, data=data),
            ),
        )
        if not confirmed.confirmed:
            raise SlidewrightError(f"upload refused: {confirmed.error}")
    return created.template_id


def analyze(client: Client, template_id: str, interval: float) -> Dict[str, Any]:
    """Starts the analysis, polls its status and returns the results as plain JSON."""
    started = client.call(
        client.analyses.StartAnalysis,
        analysis_service_pb2.StartAnalysisRequest(
            template_id=template_id, options=analysis_pb2.AnalysisOptions(parse_master_template_layout=True, parse_slides=True)
        ),
    ).analysis
    log(f"analysis {started.analysis_id}: {started.status}")
    while True:
        st = client.call(
            client.analyses.GetAnalysisStatus,
            analysis_service_pb2.GetAnalysisStatusRequest(template_id=template_id, analysis_id=started.analysis_id),
        )
        log(f"analysis {st.status} {st.progress:.0%} {st.current_step}")
        if st.status in FINAL_ANALYSIS:
            break
        time.sleep(interval)
    if st.status != "completed":
        raise SlidewrightError(f"analysis {st.status}: {st.message}")
    got = client.call(
        client.analyses.GetAnalysis,
        analysis_service_pb2.GetAnalysisRequest(template_id=template_id, analysis_id=started.analysis_id),
    )
    return json_format.MessageToDict(got.analysis.results)


def pick_layout(layouts: List[Dict[str, Any]], *types: str) -> Dict[str, Any]:
    """The first layout of one of the given types (title, obj, ...), else the first layout."""
    for t in types:
        for layout in layouts:
            if layout.get("type") == t:
                return layout
    if not layouts:
        raise SlidewrightError("the analysis found no layouts")
    return layouts[0]


def deck_request(results: Dict[str, Any]) -> presentation_service_pb2.GenerateDeckRequest:
    """A three-slide deck: a title slide, bullets, and a table, each from a layout id."""
    layouts = results.get("layouts") or []
    title = pick_layout(layouts, "title")
    body = pick_layout(layouts, "obj", "tx")
    bullets = content_pb2.Column(
        blocks=[content_pb2.Block(type="text", text=content_pb2.TextBlock(bullets=["Revenue +12%", "Churn < 2%"]))]
    )
    table = content_pb2.Table(
        rows=[
            content_pb2.TableRow(cells=[content_pb2.TableCell(value="Region"), content_pb2.TableCell(value="Revenue")], is_header=True),
            content_pb2.TableRow(cells=[content_pb2.TableCell(value="North"), content_pb2.TableCell(value="120")]),
            content_pb2.TableRow(cells=[content_pb2.TableCell(value="South"), content_pb2.TableCell(value="95")]),
        ]
    )
    return presentation_service_pb2.GenerateDeckRequest(
        slides=[
            presentation_service_pb2.DeckSlideInput(
                template_slide_id=title["slide_id"],
                slide_data=content_pb2.SlideDataInput(title="Q3 Review", subtitle="From the Python example"),
            ),
            presentation_service_pb2.DeckSlideInput(
                template_slide_id=body["slide_id"],
                slide_data=content_pb2.SlideDataInput(title="Highlights", content=[bullets]),
            ),
            presentation_service_pb2.DeckSlideInput(
                template_slide_id=body["slide_id"],
                slide_data=content_pb2.SlideDataInput(
                    title="By region",
                    content=[content_pb2.Column(blocks=[content_pb2.Block(type="table", table=content_pb2.TableBlock(table=table))])],
                ),
            ),
        ],
        options=content_pb2.GenerationOptions(footer_text="Confidential", show_slide_numbers=True),
    )


def generate(client: Client, request: presentation_service_pb2.GenerateDeckRequest, interval: float) -> Any:
    """Starts the generation and polls its status until it ends; returns the final record."""
    job = client.call(client.presentations.GenerateDeck, request).job
    log(f"generation {job.generation_id}: {job.status}")
    while True:
        st = client.call(
            client.presentations.GetGenerationStatus,
            presentation_service_pb2.GetGenerationStatusRequest(generation_id=job.generation_id),
        )
        log(f"generation {st.status} {st.progress:.0%}")
        if st.status in FINAL_GENERATION:
            return st
        time.sleep(interval)


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--address", default=os.environ.get("SLIDEWRIGHT_GRPC_ADDR", "127.0.0.1:50051"), help="core gRPC address")
    p.add_argument("--api-key", default=os.environ.get("SLIDEWRIGHT_API_KEY"), help="API key (x-api-key)")
    p.add_argument("--template", required=True, help="a .pptx or .potx template")
    p.add_argument("-o", "--output", default="deck.pptx", help="where to write the generated deck")
    p.add_argument("--upload-via", choices=("grpc", "signed-url"), default="grpc", help="how to send the template bytes")
    p.add_argument("--poll-interval", type=float, default=2.0, help="seconds between status polls")
    args = p.parse_args(argv)
    if not args.api_key:
        p.error("an API key is needed: --api-key or SLIDEWRIGHT_API_KEY")

    client = Client(args.address, args.api_key)
    try:
        template_id = upload(client, args.template, args.upload_via)
        results = analyze(client, template_id, min(args.poll_interval, 0.5))
        request = deck_request(results)
        final = generate(client, request, args.poll_interval)
        if final.status not in ("completed", "partial"):
            issues = "; ".join(f"slide {e.slide_index}: {e.message}" for e in final.errors)
            raise SlidewrightError(f"generation {final.status}: {final.message} {issues}".strip())
        deck = client.call(
            client.presentations.DownloadPresentation,
            presentation_service_pb2.DownloadPresentationRequest(presentation_id=final.generation_id),
        )
        with open(args.output, "wb") as f:
            f.write(deck.file.data)
        log(f"wrote {args.output} ({len(deck.file.data)} bytes, {final.total_pages_generated} slides)")
        print(
            json.dumps(
                {
                    "template_id": template_id,
                    "generation_id": final.generation_id,
                    "status": final.status,
                    "slides": final.total_pages_generated,
                    "bytes": len(deck.file.data),
                    "content_type": deck.file.content_type,
                    "output": os.path.abspath(args.output),
                }
            )
        )
        return 0
    except SlidewrightError as err:
        log(f"error: {err}")
        return 1
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())
