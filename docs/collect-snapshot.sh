#!/usr/bin/env bash
# collect-snapshot.sh — capture the evidence eksdoctor needs, with only the aws CLI (v2) and
# kubectl, into the snapshot layout of docs/snapshot-format.md. Every command is read-only
# (describe/get/list). A command that fails leaves its error text in the file; eksdoctor then
# reports the dependent checks as skipped with that reason (e.g. AccessDenied).
#
# usage: collect-snapshot.sh -c CLUSTER -i INSTANCE_ID [-i INSTANCE_ID ...] [-r REGION] [-o OUT.tar.gz] [--no-kube]
#   then: eksdoctor why-not-joining INSTANCE_ID --snapshot OUT.tar.gz
set -uo pipefail

cluster="" region="${AWS_REGION:-${AWS_DEFAULT_REGION:-}}" out="" kube=1
instances=()
while [ $# -gt 0 ]; do
  case "$1" in
    -c|--cluster) cluster="$2"; shift 2 ;;
    -i|--instance) instances+=("$2"); shift 2 ;;
    -r|--region) region="$2"; shift 2 ;;
    -o|--output) out="$2"; shift 2 ;;
    --no-kube) kube=0; shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ -z "$cluster" ] || [ ${#instances[@]} -eq 0 ]; then
  echo "usage: $0 -c CLUSTER -i INSTANCE_ID [-r REGION] [-o OUT.tar.gz]" >&2; exit 2
fi
command -v aws >/dev/null || { echo "aws CLI v2 not found" >&2; exit 2; }
[ -n "$out" ] || out="eksdoctor-snapshot-${cluster}-$(date -u +%Y%m%dT%H%M%SZ).tar.gz"
reg=()
[ -n "$region" ] && reg=(--region "$region")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
snap="$work/snapshot"
mkdir -p "$snap"/{eks/describe-access-entry,eks/describe-nodegroup,ec2/instance-user-data,ec2/vpc-attribute,ec2/describe-launch-template-versions,iam/get-instance-profile,iam/get-role,iam/list-attached-role-policies,autoscaling/describe-scaling-activities,kube}

# save FILE CMD...: run a read-only command, keep stdout, or its error text when it fails.
save() {
  local file="$snap/$1"; shift
  if ! "$@" >"$file" 2>"$file.err"; then mv "$file.err" "$file"; else rm -f "$file.err"; fi
}
awsj() { aws "${reg[@]}" --output json "$@"; }
q() { aws "${reg[@]}" --output text "$@" 2>/dev/null; }

save eks/describe-cluster.json awsj eks describe-cluster --name "$cluster"
save eks/list-access-entries.json awsj eks list-access-entries --cluster-name "$cluster"
save eks/list-nodegroups.json awsj eks list-nodegroups --cluster-name "$cluster"
for ng in $(q eks list-nodegroups --cluster-name "$cluster" --query 'nodegroups[]'); do
  save "eks/describe-nodegroup/$ng.json" awsj eks describe-nodegroup --cluster-name "$cluster" --nodegroup-name "$ng"
done

save ec2/describe-instances.json awsj ec2 describe-instances --instance-ids "${instances[@]}"
vpc=$(q ec2 describe-instances --instance-ids "${instances[0]}" --query 'Reservations[0].Instances[0].VpcId')
amis=$(q ec2 describe-instances --instance-ids "${instances[@]}" --query 'Reservations[].Instances[].ImageId' | tr '\t' '\n' | sort -u)
types=$(q ec2 describe-instances --instance-ids "${instances[@]}" --query 'Reservations[].Instances[].InstanceType' | tr '\t' '\n' | sort -u)
for i in "${instances[@]}"; do
  save "ec2/instance-user-data/$i.json" awsj ec2 describe-instance-attribute --instance-id "$i" --attribute userData
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
  [ -n "$dopt" ] && [ "$dopt" != "None" ] && save ec2/describe-dhcp-options.json awsj ec2 describe-dhcp-options --dhcp-options-ids "$dopt"
fi
save autoscaling/describe-auto-scaling-groups.json awsj autoscaling describe-auto-scaling-groups --filters "Name=tag-key,Values=kubernetes.io/cluster/$cluster"

if [ "$kube" = 1 ] && command -v kubectl >/dev/null; then
  save kube/aws-auth.yaml kubectl -n kube-system get configmap aws-auth -o yaml
  save kube/amazon-vpc-cni.yaml kubectl -n kube-system get configmap amazon-vpc-cni -o yaml
  save kube/nodes.json kubectl get nodes -o json
  save kube/csrs.json kubectl get csr -o json
  save kube/aws-node.json kubectl -n kube-system get daemonset aws-node -o json
  save kube/aws-node-serviceaccount.json kubectl -n kube-system get serviceaccount aws-node -o json
  save kube/kube-dns.json kubectl -n kube-system get service kube-dns -o json
  mkdir -p "$snap/kube/clusterroles" "$snap/kube/clusterrolebindings" "$snap/kube/endpointslices"
  for n in eks:node-bootstrapper eks:node-manager; do
    save "kube/clusterroles/$n.json" kubectl get clusterrole "$n" -o json
    save "kube/clusterrolebindings/$n.json" kubectl get clusterrolebinding "$n" -o json
  done
  save kube/validatingwebhookconfigurations.json kubectl get validatingwebhookconfigurations -o json
  save kube/mutatingwebhookconfigurations.json kubectl get mutatingwebhookconfigurations -o json
  # EndpointSlices of the services behind fail-closed webhooks
  for svc in $(kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations -o jsonpath='{range .items[*].webhooks[?(@.failurePolicy!="Ignore")]}{.clientConfig.service.namespace}{"."}{.clientConfig.service.name}{"\n"}{end}' 2>/dev/null | sort -u); do
    [ "$svc" = "." ] && continue
    save "kube/endpointslices/$svc.json" kubectl -n "${svc%%.*}" get endpointslices -l "kubernetes.io/service-name=${svc#*.}" -o json
  done
fi

ids=$(printf '"%s",' "${instances[@]}")
printf '{"cluster": "%s", "region": "%s", "instanceIds": [%s], "collectedAt": "%s", "tool": "collect-snapshot.sh"}\n' \
  "$cluster" "$region" "${ids%,}" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$snap/manifest.json"
find "$snap" -type d -empty -delete
tar -C "$work" -czf "$out" snapshot
echo "wrote $out — review it for secrets before sharing (user data is included)."
