#!/usr/bin/env bash
# collect-snapshot.sh — capture the evidence eksdoctor needs, with only the AWS CLI, kubectl and
# perl, into the snapshot layout of docs/snapshot-format.md: every file `eksdoctor collect`
# writes (collectors/layout; a test checks that this script covers it). Every command is
# read-only (describe/get/list). A command that fails leaves its error text in the file;
# eksdoctor then reports the dependent checks as skipped with that reason (e.g. AccessDenied).
# Secrets in user data are replaced by REDACTED (a subset of `eksdoctor collect`'s redaction:
# access key IDs and secret/password/token/API key assignments; collect covers more).
#
# usage: collect-snapshot.sh -c CLUSTER -i INSTANCE_ID [-i INSTANCE_ID ...] [-r REGION] [-o OUT.tar.gz]
#                            [--context NAME | --update-kubeconfig] [--no-kube] [--no-redact]
#   --context NAME        kubectl context to read the cluster side from (default: the current one)
#   --update-kubeconfig   build a temporary kubeconfig with `aws eks update-kubeconfig` instead
#   The kubectl context must point at the cluster's endpoint; the script refuses another cluster.
#   then: eksdoctor why-not-joining INSTANCE_ID --snapshot OUT.tar.gz
set -uo pipefail

cluster="" region="${AWS_REGION:-${AWS_DEFAULT_REGION:-}}" out="" kube=1 redact=1 context="" update_kubeconfig=0
instances=()

# redact_json FILE: replace secrets in the base64 user data of an instance attribute
# (UserData.Value) or launch template versions (LaunchTemplateData.UserData) file, with a
# subset of eksdoctor collect's collectors/redact: base64 → (gunzip) → AWS access key IDs and
# secret/password/token/api key assignments → REDACTED → (gzip) → base64.
redact_json() {
  perl -0777 -i -MMIME::Base64 -MIO::Uncompress::Gunzip=gunzip -MIO::Compress::Gzip=gzip -pe '
    sub redact {
      my ($b64) = @_;
      my $raw = decode_base64($b64);
      my $gz = substr($raw, 0, 2) eq "\x1f\x8b";
      if ($gz) { my $plain; gunzip(\$raw => \$plain) or return $b64; $raw = substr($plain, 0, 1 << 20); }
      $raw =~ s/\b(AKIA|ASIA)[0-9A-Z]{16}\b/REDACTED/g;
      $raw =~ s/((?i:aws_secret_access_key|aws_session_token|secret_?key|secret|password|passwd|api_?key|token)["\x27]?\s*[=:]\s*["\x27]?)([^\s"\x27,;]+)/${1}REDACTED/g;
      if ($gz) { my $z; gzip(\$raw => \$z) or return $b64; $raw = $z; }
      return encode_base64($raw, "");
    }
    s/("(?:Value|UserData)"\s*:\s*")([A-Za-z0-9+\/=]+)(")/$1 . redact($2) . $3/ge;
  ' "$1"
}

while [ $# -gt 0 ]; do
  case "$1" in
    -c|--cluster) cluster="$2"; shift 2 ;;
    -i|--instance) instances+=("$2"); shift 2 ;;
    -r|--region) region="$2"; shift 2 ;;
    -o|--output) out="$2"; shift 2 ;;
    --context) context="$2"; shift 2 ;;
    --update-kubeconfig) update_kubeconfig=1; shift ;;
    --no-kube) kube=0; shift ;;
    --no-redact) redact=0; shift ;;
    --redact-file) redact_json "$2"; exit $? ;; # used by the tests: redact one file in place
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ -z "$cluster" ] || [ ${#instances[@]} -eq 0 ]; then
  echo "usage: $0 -c CLUSTER -i INSTANCE_ID [-r REGION] [-o OUT.tar.gz] [--context NAME | --update-kubeconfig]" >&2; exit 2
fi
command -v aws >/dev/null || { echo "the AWS CLI (v2) is not installed" >&2; exit 2; }
command -v perl >/dev/null || { echo "perl is needed to redact user data" >&2; exit 2; }

# The AWS CLI must know every operation used; the newest is eks list-access-entries (EKS access
# entries, December 2023). --generate-cli-skeleton asks the CLI's own model, with no API call.
cli_version=$(aws --version 2>&1 | head -1)
case "$cli_version" in
  aws-cli/2.*|aws-cli/1.*) ;;
  *) echo "cannot read the AWS CLI version (aws --version: $cli_version)" >&2; exit 2 ;;
esac
for op in "eks list-access-entries" "eks describe-access-entry" "ec2 get-console-output" "autoscaling describe-scaling-activities" "logs filter-log-events"; do
  # shellcheck disable=SC2086
  if ! aws $op --generate-cli-skeleton >/dev/null 2>&1; then
    echo "${cli_version%% *} is too old: it has no 'aws $op'. Install AWS CLI v2 2.15 or later." >&2
    exit 2
  fi
done

[ -n "$out" ] || out="eksdoctor-snapshot-${cluster}-$(date -u +%Y%m%dT%H%M%SZ).tar.gz"
reg=()
[ -n "$region" ] && reg=(--region "$region")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
snap="$work/snapshot"
mkdir -p "$snap"/{eks/describe-access-entry,eks/describe-nodegroup,ec2/instance-user-data,ec2/vpc-attribute,ec2/describe-launch-template-versions,ec2/get-console-output,iam/get-instance-profile,iam/get-role,iam/list-attached-role-policies,autoscaling/describe-scaling-activities,kube}

# save FILE CMD...: run a read-only command, keep stdout, or its error text when it fails.
save() {
  local file="$snap/$1"; shift
  if ! "$@" >"$file" 2>"$file.err"; then mv "$file.err" "$file"; else rm -f "$file.err"; fi
}
awsj() { aws "${reg[@]}" --output json "$@"; }
q() { aws "${reg[@]}" --output text "$@" 2>/dev/null; }

# The cluster side must come from this cluster: compare the kubectl context's server with the
# cluster's endpoint, or build a temporary kubeconfig for it.
kctl=(kubectl)
if [ "$kube" = 1 ]; then
  if ! command -v kubectl >/dev/null; then
    echo "kubectl not found: the cluster side is not collected (use --no-kube to silence this)" >&2
    kube=0
  else
    endpoint=$(q eks describe-cluster --name "$cluster" --query cluster.endpoint)
    if [ -z "$endpoint" ] || [ "$endpoint" = "None" ]; then
      echo "cannot read the endpoint of cluster $cluster (aws eks describe-cluster failed): refusing to guess a kubectl context; use --no-kube" >&2
      exit 3
    fi
    if [ "$update_kubeconfig" = 1 ]; then
      if ! aws "${reg[@]}" eks update-kubeconfig --name "$cluster" --kubeconfig "$work/kubeconfig" >/dev/null; then
        echo "aws eks update-kubeconfig failed" >&2; exit 3
      fi
      kctl=(kubectl --kubeconfig "$work/kubeconfig")
    elif [ -n "$context" ]; then
      kctl=(kubectl --context "$context")
    fi
    server=$("${kctl[@]}" config view --minify -o jsonpath='{.clusters[0].cluster.server}' 2>/dev/null)
    if [ "${server%/}" != "${endpoint%/}" ]; then
      echo "refusing: the kubectl context points at ${server:-nothing}, not at cluster $cluster ($endpoint)." >&2
      echo "  pass --context NAME for the right context, or --update-kubeconfig to build a temporary kubeconfig." >&2
      exit 3
    fi
  fi
fi

save eks/describe-cluster.json awsj eks describe-cluster --name "$cluster"
# the cluster's own role (roleArn), in the same iam/ files as node roles
crole=$(q eks describe-cluster --name "$cluster" --query cluster.roleArn)
if [ -n "$crole" ] && [ "$crole" != "None" ]; then
  save "iam/get-role/${crole##*/}.json" awsj iam get-role --role-name "${crole##*/}"
  save "iam/list-attached-role-policies/${crole##*/}.json" awsj iam list-attached-role-policies --role-name "${crole##*/}"
fi
save eks/list-access-entries.json awsj eks list-access-entries --cluster-name "$cluster"
save eks/list-nodegroups.json awsj eks list-nodegroups --cluster-name "$cluster"
# Fargate profiles, and each profile's pod execution role
save eks/list-fargate-profiles.json awsj eks list-fargate-profiles --cluster-name "$cluster"
for fp in $(q eks list-fargate-profiles --cluster-name "$cluster" --query 'fargateProfileNames[]'); do
  save "eks/describe-fargate-profile/$fp.json" awsj eks describe-fargate-profile --cluster-name "$cluster" --fargate-profile-name "$fp"
  prole=$(q eks describe-fargate-profile --cluster-name "$cluster" --fargate-profile-name "$fp" --query fargateProfile.podExecutionRoleArn)
  if [ -n "$prole" ] && [ "$prole" != "None" ]; then
    save "iam/get-role/${prole##*/}.json" awsj iam get-role --role-name "${prole##*/}"
    save "iam/list-attached-role-policies/${prole##*/}.json" awsj iam list-attached-role-policies --role-name "${prole##*/}"
  fi
done
asgs=()
for ng in $(q eks list-nodegroups --cluster-name "$cluster" --query 'nodegroups[]'); do
  save "eks/describe-nodegroup/$ng.json" awsj eks describe-nodegroup --cluster-name "$cluster" --nodegroup-name "$ng"
  for g in $(q eks describe-nodegroup --cluster-name "$cluster" --nodegroup-name "$ng" --query 'nodegroup.resources.autoScalingGroups[].name'); do
    asgs+=("$g")
  done
done

save ec2/describe-instances.json awsj ec2 describe-instances --instance-ids "${instances[@]}"
vpc=$(q ec2 describe-instances --instance-ids "${instances[0]}" --query 'Reservations[0].Instances[0].VpcId')
amis=$(q ec2 describe-instances --instance-ids "${instances[@]}" --query 'Reservations[].Instances[].ImageId' | tr '\t' '\n' | sort -u)
types=$(q ec2 describe-instances --instance-ids "${instances[@]}" --query 'Reservations[].Instances[].InstanceType' | tr '\t' '\n' | sort -u)
for i in "${instances[@]}"; do
  save "ec2/instance-user-data/$i.json" awsj ec2 describe-instance-attribute --instance-id "$i" --attribute userData
  save "ec2/get-console-output/$i.json" awsj ec2 get-console-output --instance-id "$i" --latest
  g=$(q ec2 describe-instances --instance-ids "$i" --query "Reservations[0].Instances[0].Tags[?Key=='aws:autoscaling:groupName'].Value | [0]")
  [ -n "$g" ] && [ "$g" != "None" ] && asgs+=("$g")
  lt=$(q ec2 describe-instances --instance-ids "$i" --query "Reservations[0].Instances[0].Tags[?Key=='aws:ec2launchtemplate:id'].Value | [0]")
  ltv=$(q ec2 describe-instances --instance-ids "$i" --query "Reservations[0].Instances[0].Tags[?Key=='aws:ec2launchtemplate:version'].Value | [0]")
  if [ -n "$lt" ] && [ "$lt" != "None" ]; then
    save "ec2/describe-launch-template-versions/$lt.json" awsj ec2 describe-launch-template-versions --launch-template-id "$lt" --versions "$ltv"
  fi
  profile=$(q ec2 describe-instances --instance-ids "$i" --query 'Reservations[0].Instances[0].IamInstanceProfile.Arn')
  if [ -n "$profile" ] && [ "$profile" != "None" ]; then
    pname=${profile##*/}
    save "iam/get-instance-profile/$pname.json" awsj iam get-instance-profile --instance-profile-name "$pname"
    for role in $(q iam get-instance-profile --instance-profile-name "$pname" --query 'InstanceProfile.Roles[].RoleName'); do
      save "iam/get-role/$role.json" awsj iam get-role --role-name "$role"
      save "iam/list-attached-role-policies/$role.json" awsj iam list-attached-role-policies --role-name "$role"
      arn=$(q iam get-role --role-name "$role" --query 'Role.Arn')
      save "eks/describe-access-entry/$role.json" awsj eks describe-access-entry --cluster-name "$cluster" --principal-arn "$arn"
    done
  fi
done
# shellcheck disable=SC2086
save ec2/describe-images.json awsj ec2 describe-images --image-ids $amis
# shellcheck disable=SC2086
save ec2/describe-instance-types.json awsj ec2 describe-instance-types --instance-types $types
if [ -n "$vpc" ] && [ "$vpc" != "None" ]; then
  f=(--filters "Name=vpc-id,Values=$vpc")
  save ec2/describe-subnets.json awsj ec2 describe-subnets "${f[@]}"
  save ec2/describe-route-tables.json awsj ec2 describe-route-tables "${f[@]}"
  save ec2/describe-security-groups.json awsj ec2 describe-security-groups "${f[@]}"
  save ec2/describe-network-acls.json awsj ec2 describe-network-acls "${f[@]}"
  save ec2/describe-vpc-endpoints.json awsj ec2 describe-vpc-endpoints "${f[@]}"
  save ec2/describe-nat-gateways.json awsj ec2 describe-nat-gateways --filter "Name=vpc-id,Values=$vpc"
  save ec2/describe-internet-gateways.json awsj ec2 describe-internet-gateways --filters "Name=attachment.vpc-id,Values=$vpc"
  save ec2/describe-vpcs.json awsj ec2 describe-vpcs --vpc-ids "$vpc"
  for attr in enableDnsSupport enableDnsHostnames; do
    save "ec2/vpc-attribute/$vpc.$attr.json" awsj ec2 describe-vpc-attribute --vpc-id "$vpc" --attribute "$attr"
  done
  dopt=$(q ec2 describe-vpcs --vpc-ids "$vpc" --query 'Vpcs[0].DhcpOptionsId')
  if [ -n "$dopt" ] && [ "$dopt" != "None" ]; then
    save ec2/describe-dhcp-options.json awsj ec2 describe-dhcp-options --dhcp-options-ids "$dopt"
  fi
  # the managed prefix lists the instances' security group rules name, and each list's entries
  # (get-managed-prefix-list-entries prints no list ID: the file name carries it)
  sgs=$(q ec2 describe-instances --instance-ids "${instances[@]}" --query 'Reservations[].Instances[].SecurityGroups[].GroupId' | tr '\t' '\n' | sort -u)
  if [ -n "$sgs" ]; then
    # shellcheck disable=SC2086
    pls=$(q ec2 describe-security-groups --group-ids $sgs --query 'SecurityGroups[].[IpPermissions[].PrefixListIds[].PrefixListId, IpPermissionsEgress[].PrefixListIds[].PrefixListId]' | tr '\t' '\n' | sed '/^$/d;/^None$/d' | sort -u)
    if [ -n "$pls" ]; then
      mkdir -p "$snap/ec2/get-managed-prefix-list-entries"
      # shellcheck disable=SC2086
      save ec2/describe-managed-prefix-lists.json awsj ec2 describe-managed-prefix-lists --prefix-list-ids $pls
      for pl in $pls; do
        save "ec2/get-managed-prefix-list-entries/$pl.json" awsj ec2 get-managed-prefix-list-entries --prefix-list-id "$pl"
      done
    fi
  fi
fi
# the control plane's authenticator log, and its audit events about CSRs and aws-auth, when the
# cluster sends them to CloudWatch Logs: since the earliest launch of the instances (the audit
# events from 24 hours before it: the change that broke every node usually comes first)
logtypes=$(q eks describe-cluster --name "$cluster" --query 'cluster.logging.clusterLogging[?enabled].types[]')
launch=$(q ec2 describe-instances --instance-ids "${instances[@]}" --query 'min(Reservations[].Instances[].LaunchTime)')
if [ -n "$launch" ] && [ "$launch" != "None" ] && since=$(date -d "$launch" +%s 2>/dev/null); then
  group="/aws/eks/$cluster/cluster"
  case " $logtypes " in
    *authenticator*) save logs/authenticator-events.json awsj logs filter-log-events --log-group-name "$group" --log-stream-name-prefix authenticator --start-time "$((since * 1000))" ;;
  esac
  case " $logtypes " in
    *audit*) save logs/audit-events.json awsj logs filter-log-events --log-group-name "$group" --log-stream-name-prefix kube-apiserver-audit --start-time "$(((since - 86400) * 1000))" \
      --filter-pattern '{ ($.objectRef.resource = "certificatesigningrequests") || ($.objectRef.name = "aws-auth") }' ;;
  esac
fi
# CloudTrail: EC2's answers to the launches (RunInstances, CreateFleet) from 15 minutes before the
# earliest launch, and the access-entry changes (DeleteAccessEntry, UpdateAccessEntry) from 24
# hours before it; with no launch time, the last 24 hours. LookupEvents takes one event name per
# call and allows 2 calls a second.
if [ -z "${since:-}" ]; then since=$(( $(date -u +%s) - 86400 )); fi
for e in RunInstances CreateFleet DeleteAccessEntry UpdateAccessEntry; do
  from=$((since - 900))
  case "$e" in *AccessEntry) from=$((since - 86400)) ;; esac
  save "cloudtrail/lookup-events/$e.json" awsj cloudtrail lookup-events --lookup-attributes "AttributeKey=EventName,AttributeValue=$e" \
    --start-time "$from" --max-items 500
  sleep 1
done
# the node groups' and the instances' Auto Scaling groups, and their latest 50 activities
mapfile -t asgs < <(printf '%s\n' "${asgs[@]}" | sed '/^$/d' | sort -u)
if [ ${#asgs[@]} -gt 0 ]; then
  save autoscaling/describe-auto-scaling-groups.json awsj autoscaling describe-auto-scaling-groups --auto-scaling-group-names "${asgs[@]}"
  for g in "${asgs[@]}"; do
    save "autoscaling/describe-scaling-activities/$g.json" awsj autoscaling describe-scaling-activities --auto-scaling-group-name "$g" --max-items 50
  done
fi

if [ "$kube" = 1 ]; then
  save kube/aws-auth.yaml "${kctl[@]}" -n kube-system get configmap aws-auth -o yaml
  save kube/amazon-vpc-cni.yaml "${kctl[@]}" -n kube-system get configmap amazon-vpc-cni -o yaml
  save kube/nodes.json "${kctl[@]}" get nodes -o json
  save kube/csrs.json "${kctl[@]}" get csr -o json
  save kube/aws-node.json "${kctl[@]}" -n kube-system get daemonset aws-node -o json
  save kube/pending-pods.json "${kctl[@]}" get pods -A --field-selector status.phase=Pending -o json
  save kube/aws-node-serviceaccount.json "${kctl[@]}" -n kube-system get serviceaccount aws-node -o json
  save kube/kube-dns.json "${kctl[@]}" -n kube-system get service kube-dns -o json
  mkdir -p "$snap/kube/clusterroles" "$snap/kube/clusterrolebindings" "$snap/kube/endpointslices"
  for n in eks:node-bootstrapper eks:node-manager; do
    save "kube/clusterroles/$n.json" "${kctl[@]}" get clusterrole "$n" -o json
    save "kube/clusterrolebindings/$n.json" "${kctl[@]}" get clusterrolebinding "$n" -o json
  done
  save kube/validatingwebhookconfigurations.json "${kctl[@]}" get validatingwebhookconfigurations -o json
  save kube/mutatingwebhookconfigurations.json "${kctl[@]}" get mutatingwebhookconfigurations -o json
  # Karpenter and EKS Auto Mode (kubectl's "doesn't have a resource type" answer records that the CRD is absent)
  save kube/nodeclaims.json "${kctl[@]}" get nodeclaims.karpenter.sh -o json
  save kube/nodepools.json "${kctl[@]}" get nodepools.karpenter.sh -o json
  save kube/ec2nodeclasses.json "${kctl[@]}" get ec2nodeclasses.karpenter.k8s.aws -o json
  save kube/nodeclasses.json "${kctl[@]}" get nodeclasses.eks.amazonaws.com -o json
  # EndpointSlices of the services behind fail-closed webhooks
  for svc in $("${kctl[@]}" get validatingwebhookconfigurations,mutatingwebhookconfigurations -o jsonpath='{range .items[*].webhooks[?(@.failurePolicy!="Ignore")]}{.clientConfig.service.namespace}{"."}{.clientConfig.service.name}{"\n"}{end}' 2>/dev/null | sort -u); do
    [ "$svc" = "." ] && continue
    save "kube/endpointslices/$svc.json" "${kctl[@]}" -n "${svc%%.*}" get endpointslices -l "kubernetes.io/service-name=${svc#*.}" -o json
  done
fi

if [ "$redact" = 1 ]; then
  for f in "$snap"/ec2/instance-user-data/*.json "$snap"/ec2/describe-launch-template-versions/*.json; do
    [ -f "$f" ] && redact_json "$f"
  done
fi

ids=$(printf '"%s",' "${instances[@]}")
printf '{"cluster": "%s", "region": "%s", "instanceIds": [%s], "collectedAt": "%s", "tool": "collect-snapshot.sh"}\n' \
  "$cluster" "$region" "${ids%,}" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$snap/manifest.json"
find "$snap" -type d -empty -delete
tar -C "$work" -czf "$out" snapshot
if [ "$redact" = 1 ]; then
  echo "wrote $out (secrets in user data replaced by REDACTED)."
else
  echo "wrote $out — review it for secrets before sharing (user data is included unredacted)."
fi
