package awsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// This file guards the collector against an endpoint that does not behave like AWS: a 200
// answer that is empty or not the operation's response, retries that never succeed, and
// pagination that never ends.

// CodeInvalidResponse is the error code given to an HTTP 2xx answer that is not the
// operation's AWS response (an empty body, an HTML page from a proxy, another operation's XML).
const CodeInvalidResponse = "InvalidResponse"

// CodePaginationLoop is the error code of a listing whose next-page token repeats.
const CodePaginationLoop = "PaginationLoop"

// MaxPages bounds the pages fetched for one call.
const MaxPages = 1000

// responseValidator is a deserialize-step middleware, placed below the SDK's deserializer, that
// rejects a 2xx answer whose body is not the operation's response: JSON services (EKS, CloudWatch
// Logs, CloudTrail) must
// answer a JSON object, query services (EC2, IAM, Auto Scaling, STS) an XML document whose root
// is <OperationResponse>. Without it an empty body deserializes into an empty output ("no user
// data", "instance not found").
func responseValidator(stack *middleware.Stack) error {
	return stack.Deserialize.Add(middleware.DeserializeMiddlewareFunc("eksdoctorResponseValidator",
		func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleDeserialize(ctx, in)
			if err != nil {
				return out, md, err
			}
			r, ok := out.RawResponse.(*smithyhttp.Response)
			if !ok || r == nil || r.StatusCode < 200 || r.StatusCode > 299 || r.Body == nil {
				return out, md, err
			}
			body, rerr := io.ReadAll(r.Body)
			r.Body.Close()
			r.Body = io.NopCloser(bytes.NewReader(body))
			if rerr != nil {
				return out, md, rerr
			}
			op, svc := awsmiddleware.GetOperationName(ctx), awsmiddleware.GetServiceID(ctx)
			if problem := checkResponse(svc, op, body); problem != "" {
				return out, md, &smithy.GenericAPIError{Code: CodeInvalidResponse, Fault: smithy.FaultServer,
					Message: fmt.Sprintf("the endpoint answered HTTP %d with %s, not a %s %s response (Content-Type %q)", r.StatusCode, problem, svc, op, r.Header.Get("Content-Type"))}
			}
			return out, md, err
		}), middleware.After)
}

// jsonService are the SDK service IDs that answer in JSON: EKS (REST-JSON), CloudWatch Logs and
// CloudTrail (JSON 1.1).
var jsonService = map[string]bool{"EKS": true, "CloudWatch Logs": true, "CloudTrail": true}

// checkResponse returns what is wrong with a 2xx body of operation op of service svc, or "".
func checkResponse(svc, op string, body []byte) string {
	t := bytes.TrimSpace(body)
	if len(t) == 0 {
		return "an empty body"
	}
	if jsonService[svc] {
		if t[0] != '{' || !json.Valid(t) {
			return describeBody(t)
		}
		return ""
	}
	if d := describeBody(t); strings.HasPrefix(d, "an HTML page") {
		return d
	}
	dec := xml.NewDecoder(bytes.NewReader(t))
	for {
		tok, err := dec.Token()
		if err != nil {
			return describeBody(t)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if op != "" && se.Name.Local != op+"Response" {
				return fmt.Sprintf("an XML document <%s>", se.Name.Local)
			}
			return ""
		}
	}
}

func describeBody(b []byte) string {
	head := b
	if len(head) > 40 {
		head = head[:40]
	}
	lower := strings.ToLower(string(head))
	if strings.HasPrefix(lower, "<!doctype html") || strings.HasPrefix(lower, "<html") {
		return fmt.Sprintf("an HTML page (%d bytes)", len(b))
	}
	return fmt.Sprintf("%d bytes starting %q", len(b), head)
}

// attempts records, for one call, how many HTTP attempts were made and the last error AWS (or
// the endpoint) answered, so a call that ends on a timeout still names what went wrong before.
type attempts struct {
	mu   sync.Mutex
	n    int
	last error
}

type attemptsKey struct{}

func withAttempts(ctx context.Context) (context.Context, *attempts) {
	a := &attempts{}
	return context.WithValue(ctx, attemptsKey{}, a), a
}

func (a *attempts) get() (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n, a.last
}

// attemptRecorder is a deserialize-step middleware above the SDK's deserializer (inside the
// retry loop): it sees every attempt's result.
func attemptRecorder(stack *middleware.Stack) error {
	return stack.Deserialize.Add(middleware.DeserializeMiddlewareFunc("eksdoctorAttempts",
		func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleDeserialize(ctx, in)
			if a, ok := ctx.Value(attemptsKey{}).(*attempts); ok {
				a.mu.Lock()
				a.n++
				if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
					a.last = err
				}
				a.mu.Unlock()
			}
			return out, md, err
		}), middleware.Before)
}

// describeError returns the error code and message of a failed call: the API error itself, or,
// when a timeout ended the call, which timeout fired (the overall one, whose context is parent,
// or the per-call one of callTimeout) and the last error answered before it.
func describeError(parent context.Context, callTimeout string, err error, a *attempts) (string, string) {
	n, last := 0, error(nil)
	if a != nil {
		n, last = a.get()
	}
	timedOut := errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
	if !timedOut {
		code, msg := apiError(err)
		if n > 1 {
			msg += fmt.Sprintf(" (after %d attempts)", n)
		}
		return code, msg
	}
	var msg string
	if parent.Err() != nil {
		msg = "the overall timeout (--timeout) expired before the call finished"
	} else {
		msg = "the call did not finish within the per-call timeout (--call-timeout " + callTimeout + ")"
	}
	switch {
	case last != nil:
		code, lmsg := apiError(last)
		msg += fmt.Sprintf("; last error after %d attempt(s): %s: %s", n, code, lmsg)
	case n > 0:
		msg += fmt.Sprintf("; no answer after %d attempt(s)", n)
	default:
		msg += "; no request was answered"
	}
	return "RequestTimeout", msg
}

// apiError returns the code and message of an AWS API error, or RequestError and the text of a
// transport failure. A server error (HTTP 5xx) or an answer the SDK could not read as an AWS
// error says its HTTP status.
func apiError(err error) (string, string) {
	status := 0
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) {
		status = re.HTTPStatusCode()
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		code, msg := ae.ErrorCode(), ae.ErrorMessage()
		if status >= 500 || (status != 0 && code == "UnknownError") {
			if msg == code || msg == "" {
				msg = "the answer is not an AWS error response"
			}
			msg = fmt.Sprintf("HTTP %d: %s", status, msg)
		}
		return code, msg
	}
	return "RequestError", err.Error()
}

// pageToken returns the next-page token of an SDK output page (NextToken, or IAM's Marker when
// IsTruncated), "" when there is none.
func pageToken(page any) string {
	v := reflect.ValueOf(page)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return ""
	}
	for _, name := range []string{"NextToken", "Marker"} {
		f := v.FieldByName(name)
		if f.IsValid() && f.Kind() == reflect.Pointer && !f.IsNil() && f.Elem().Kind() == reflect.String {
			return f.Elem().String()
		}
	}
	return ""
}

// paginationError is returned by drain when a token repeats or the page budget is spent.
func paginationError(pages int, token string, repeated bool) error {
	msg := fmt.Sprintf("stopped after %d pages: more than %d pages", pages, MaxPages)
	if repeated {
		t := token
		if len(t) > 40 {
			t = t[:40] + "…"
		}
		msg = fmt.Sprintf("the endpoint returned the next-page token %q again on page %d; pagination stopped instead of looping", t, pages)
	}
	return &smithy.GenericAPIError{Code: CodePaginationLoop, Message: msg, Fault: smithy.FaultServer}
}
