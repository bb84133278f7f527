{{- define "eksdoctor.labels" -}}
app.kubernetes.io/name: eksdoctor
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{- define "eksdoctor.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end -}}

{{- define "eksdoctor.reportKinds" -}}
{{- if eq .Values.report.api "both" -}}policyreport,openreports
{{- else if has .Values.report.api (list "policyreport" "openreports") -}}{{ .Values.report.api }}
{{- else if ne .Values.report.api "none" -}}{{ fail "report.api must be policyreport, openreports, both or none" }}
{{- end -}}
{{- end -}}
