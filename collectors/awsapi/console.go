package awsapi

import (
	"encoding/base64"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
)

// consoleOutputCLI is get-console-output as the AWS CLI prints it: Output decoded from base64.
type consoleOutputCLI struct {
	InstanceId string     `json:"InstanceId"`
	Timestamp  *time.Time `json:"Timestamp,omitempty"`
	Output     string     `json:"Output"`
}

func consoleOutputCLIFrom(out *ec2.GetConsoleOutputOutput) consoleOutputCLI {
	text := aws.ToString(out.Output)
	if b, err := base64.StdEncoding.DecodeString(text); err == nil && utf8.Valid(b) {
		text = string(b)
	}
	return consoleOutputCLI{InstanceId: aws.ToString(out.InstanceId), Timestamp: out.Timestamp, Output: text}
}
