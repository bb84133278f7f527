package ingest

import (
	"testing"
	"unicode/utf16"
)

// TestUTF16ThenUTF8IsDecodedPartByPart: aws-auth written by PowerShell 5.1's `>` (UTF-16LE with
// a byte-order mark) with UTF-8 kubelet lines appended by Add-Content, in either order, reads as
// the aws-auth and the log it holds — not as a malformed aws-auth of decoding junk, nor as prose.
func TestUTF16ThenUTF8IsDecodedPartByPart(t *testing.T) {
	enc := func(s string) []byte {
		b := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	awsAuth := "apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: aws-auth\r\n  namespace: kube-system\r\ndata:\r\n  mapRoles: |\r\n    - rolearn: arn:aws:iam::111122223333:role/NodeRole\r\n      username: system:node:{{EC2PrivateDNSName}}\r\n      groups:\r\n        - system:bootstrappers\r\n        - system:nodes\r\n"
	log := "\r\nNov 24 10:00:08 ip-10-0-1-23.ec2.internal kubelet[2345]: E1124 10:00:08.223456    2345 kubelet_node_status.go:96] \"Unable to register node with API server\" err=\"Unauthorized\" node=\"ip-10-0-1-23.ec2.internal\"\r\n"
	for name, raw := range map[string][]byte{
		"utf-16 then utf-8": append(enc(awsAuth), log...),
		"utf-8 then utf-16": append([]byte(log[2:]), enc(awsAuth)...),
		// the same in UTF-8 alone: a manifest right under a log line is a document of its own
		"utf-8 log then aws-auth": []byte(log[2:] + awsAuth),
	} {
		text, p := Text(raw)
		if p != nil {
			t.Fatalf("%s: %v", name, p)
		}
		r := Read(text, "mixenc.txt", Options{})
		var auth bool
		for _, s := range r.Segments {
			auth = auth || s.Type == TypeAWSAuth
		}
		if !auth || r.Evidence.AWSAuth == nil || len(r.Evidence.AWSAuth.Roles) != 1 || len(r.Evidence.AWSAuth.Problems) != 0 {
			t.Errorf("%s: aws-auth not read whole (segments %v, %+v)", name, types(r.Segments), r.Evidence.AWSAuth)
		}
		if !hasSignature(r.Evidence.NodeLogs, "kubelet-register-unauthorized") {
			t.Errorf("%s: the appended kubelet line was not read (segments %v)", name, types(r.Segments))
		}
	}
}
