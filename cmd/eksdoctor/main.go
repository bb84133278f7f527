// Command eksdoctor answers one question: why does this EC2 node not join my Amazon EKS cluster?
package main

import (
	"os"

	"github.com/eksdoctor/eksdoctor/cmd/eksdoctor/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
