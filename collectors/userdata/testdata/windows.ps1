<powershell>
[string]$EKSBootstrapScriptFile = "$env:ProgramFiles\Amazon\EKS\Start-EKSBootstrap.ps1"
& $EKSBootstrapScriptFile -EKSClusterName "my-cluster" -APIServerEndpoint "https://ABC.gr7.us-west-2.eks.amazonaws.com" -Base64ClusterCA "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==" -DNSClusterIP "172.20.0.10" -KubeletExtraArgs "--node-labels=os=windows --register-with-taints=os=windows:NoSchedule" 3>&1 4>&1 5>&1 6>&1
</powershell>
