// Command slidewright-example drives Slidewright over gRPC from Go: upload a template,
// analyze it, generate a deck, poll until it is done and download the .pptx.
//
// It uses the generated stubs in proto/gen/go (`npm run gen:stubs`), module
// slidewright/proto/gen/go, package slidewrightv1.
//
//	go run . -address 127.0.0.1:50051 -api-key "$KEY" -template brand.pptx -o deck.pptx
//
// The address is the core's gRPC port (GRPC_PORT, 50051 by default; loopback only in
// embedded mode); the API key travels as the x-api-key metadata. Progress goes to stderr;
// the last line on stdout is a JSON summary.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/ioutil"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	swv1 "slidewright/proto/gen/go/slidewright/v1"
)

const pptxMediaType = "application/vnd.openxmlformats-officedocument.presentationml.presentation"

// describe turns a gRPC error into one readable message, listing each field violation of
// an INVALID_ARGUMENT (google.rpc.BadRequest).
func describe(err error) error {
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", st.Code(), st.Message())
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				fmt.Fprintf(&b, "\n  %s: %s", v.GetField(), v.GetDescription())
			}
		}
	}
	return errors.New(b.String())
}

type client struct {
	templates     swv1.TemplateServiceClient
	analyses      swv1.AnalysisServiceClient
	presentations swv1.PresentationServiceClient
	ctx           context.Context
}

func logf(format string, args ...interface{}) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

// upload creates the template record and sends the bytes: over gRPC
// (UploadTemplateContent with a google.api.HttpBody) or to the signed upload URL.
func (c *client) upload(path, via string) (string, error) {
	data, err := ioutil.ReadFile(path)
	if err != nil {
		return "", err
	}
	created, err := c.templates.CreateTemplate(c.ctx, &swv1.CreateTemplateRequest{
		Filename: filepath.Base(path),
		FileSize: proto.Int64(int64(len(data))),
		Metadata: &swv1.TemplateMetadata{Category: proto.String("examples"), Tags: []string{"go"}},
	})
	if err != nil {
		return "", describe(err)
	}
	logf("template %s: uploading %d bytes via %s", created.GetTemplateId(), len(data), via)
	if via == "signed-url" {
		req, err := http.NewRequest(http.MethodPut, created.GetUploadUrl(), bytes.NewReader(data))
		if err != nil {
			return "", err
		}
		req.Header.Set("content-type", pptxMediaType)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer res.Body.Close()
		var body struct {
			Confirmed bool    `json:"confirmed"`
			Error     *string `json:"error"`
		}
		if err := json.NewDecoder(res.Body).Decode(&body); err != nil || !body.Confirmed {
			return "", fmt.Errorf("upload refused (HTTP %d): %v", res.StatusCode, body.Error)
		}
	} else {
		up, err := c.templates.UploadTemplateContent(c.ctx, &swv1.UploadTemplateContentRequest{
			TemplateId: created.GetTemplateId(),
			File:       &httpbody.HttpBody{ContentType: pptxMediaType, Data: data},
		})
		if err != nil {
			return "", describe(err)
		}
		if !up.GetConfirmed() {
			return "", fmt.Errorf("upload refused: %s", up.GetError())
		}
	}
	return created.GetTemplateId(), nil
}

// analyze starts the analysis, polls it and returns its results as plain JSON values.
func (c *client) analyze(templateID string, interval time.Duration) (map[string]interface{}, error) {
	started, err := c.analyses.StartAnalysis(c.ctx, &swv1.StartAnalysisRequest{TemplateId: templateID})
	if err != nil {
		return nil, describe(err)
	}
	id := started.GetAnalysis().GetAnalysisId()
	for {
		st, err := c.analyses.GetAnalysisStatus(c.ctx, &swv1.GetAnalysisStatusRequest{TemplateId: templateID, AnalysisId: proto.String(id)})
		if err != nil {
			return nil, describe(err)
		}
		logf("analysis %s %.0f%%", st.GetStatus(), st.GetProgress()*100)
		switch st.GetStatus() {
		case "completed":
			got, err := c.analyses.GetAnalysis(c.ctx, &swv1.GetAnalysisRequest{TemplateId: templateID, AnalysisId: proto.String(id)})
			if err != nil {
				return nil, describe(err)
			}
			return got.GetAnalysis().GetResults().AsMap(), nil
		case "failed", "cancelled":
			return nil, fmt.Errorf("analysis %s: %s", st.GetStatus(), st.GetMessage())
		}
		time.Sleep(interval)
	}
}

// pickLayout returns the slide id of the first layout of one of the given types.
func pickLayout(results map[string]interface{}, types ...string) (string, error) {
	layouts, _ := results["layouts"].([]interface{})
	for _, t := range types {
		for _, l := range layouts {
			if m, ok := l.(map[string]interface{}); ok && m["type"] == t {
				return fmt.Sprint(m["slide_id"]), nil
			}
		}
	}
	if len(layouts) > 0 {
		if m, ok := layouts[0].(map[string]interface{}); ok {
			return fmt.Sprint(m["slide_id"]), nil
		}
	}
	return "", errors.New("the analysis found no layouts")
}

func run() error {
	address := flag.String("address", envOr("SLIDEWRIGHT_GRPC_ADDR", "127.0.0.1:50051"), "core gRPC address")
	apiKey := flag.String("api-key", os.Getenv("SLIDEWRIGHT_API_KEY"), "API key (x-api-key metadata)")
	template := flag.String("template", "", "a .pptx or .potx template (required)")
	output := flag.String("o", "deck.pptx", "where to write the generated deck")
	via := flag.String("upload-via", "grpc", "how to send the template bytes: grpc or signed-url")
	interval := flag.Duration("poll-interval", 2*time.Second, "time between status polls")
	flag.Parse()
	if *template == "" || *apiKey == "" {
		flag.Usage()
		return errors.New("-template and an API key (-api-key or SLIDEWRIGHT_API_KEY) are required")
	}

	// grpc.WithInsecure works on every grpc-go from 1.33 (Debian) to today.
	conn, err := grpc.Dial(*address, grpc.WithInsecure())
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(metadata.AppendToOutgoingContext(context.Background(), "x-api-key", *apiKey), 10*time.Minute)
	defer cancel()
	c := &client{
		templates:     swv1.NewTemplateServiceClient(conn),
		analyses:      swv1.NewAnalysisServiceClient(conn),
		presentations: swv1.NewPresentationServiceClient(conn),
		ctx:           ctx,
	}

	templateID, err := c.upload(*template, *via)
	if err != nil {
		return err
	}
	pollAnalysis := *interval
	if pollAnalysis > 500*time.Millisecond {
		pollAnalysis = 500 * time.Millisecond
	}
	results, err := c.analyze(templateID, pollAnalysis)
	if err != nil {
		return err
	}
	titleID, err := pickLayout(results, "title")
	if err != nil {
		return err
	}
	bodyID, err := pickLayout(results, "obj", "tx")
	if err != nil {
		return err
	}

	job, err := c.presentations.GenerateDeck(ctx, &swv1.GenerateDeckRequest{
		Slides: []*swv1.DeckSlideInput{
			{TemplateSlideId: titleID, SlideData: &swv1.SlideDataInput{Title: proto.String("Q3 Review"), Subtitle: proto.String("From the Go example")}},
			{TemplateSlideId: bodyID, SlideData: &swv1.SlideDataInput{
				Title: proto.String("Highlights"),
				Content: []*swv1.Column{{Blocks: []*swv1.Block{{
					Type: "text", Text: &swv1.TextBlock{Bullets: []string{"Revenue +12%", "Churn < 2%"}},
				}}}},
			}},
		},
		Options: &swv1.GenerationOptions{FooterText: proto.String("Confidential"), ShowSlideNumbers: proto.Bool(true)},
	})
	if err != nil {
		return describe(err)
	}
	id := job.GetJob().GetGenerationId()
	logf("generation %s: %s", id, job.GetJob().GetStatus())
	var final *swv1.GetGenerationStatusResponse
	for final == nil {
		st, err := c.presentations.GetGenerationStatus(ctx, &swv1.GetGenerationStatusRequest{GenerationId: id})
		if err != nil {
			return describe(err)
		}
		logf("generation %s %.0f%%", st.GetStatus(), st.GetProgress()*100)
		switch st.GetStatus() {
		case "completed", "partial":
			final = st
		case "failed":
			return fmt.Errorf("generation failed: %s", st.GetMessage())
		default:
			time.Sleep(*interval)
		}
	}

	deck, err := c.presentations.DownloadPresentation(ctx, &swv1.DownloadPresentationRequest{PresentationId: id})
	if err != nil {
		return describe(err)
	}
	if err := ioutil.WriteFile(*output, deck.GetFile().GetData(), 0o644); err != nil {
		return err
	}
	abs, _ := filepath.Abs(*output)
	summary, _ := json.Marshal(map[string]interface{}{
		"template_id":   templateID,
		"generation_id": id,
		"status":        final.GetStatus(),
		"slides":        final.GetTotalPagesGenerated(),
		"bytes":         len(deck.GetFile().GetData()),
		"output":        abs,
	})
	fmt.Println(string(summary))
	return nil
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
