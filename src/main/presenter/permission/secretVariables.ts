/**
 * Environment variable names that look like they hold a secret: API keys, tokens, passwords,
 * cloud credentials, agent sockets. Expanding one in a command asks. This is the second wall:
 * children get only allowlisted variables (`childEnvironment`), so this list matters for names
 * the user allowed in Settings and variables a line sets itself (`source .env; echo $X`). It
 * cannot be complete, which is why it is not the first wall.
 */
const SECRET_WORDS =
  /(^|_)(KEY|APIKEY|PASS|PASSWD|PIN)$|TOKEN|SECRET|PASSWORD|PASSPHRASE|CREDENTIAL|PRIVATE|AUTH|COOKIE|SESSION_ID|SIGNING/i
const CONNECTION_STRINGS =
  /(^|_)(DSN|DATABASE_URL|CONNECTION_STRING|CONN_STR|REDIS_URL|MONGO(DB)?_URI|POSTGRES_URL)$/i
const CLOUD_PREFIXES =
  /^(AWS|AZURE|ARM|GCP|GOOGLE_APPLICATION|GOOGLE_CLOUD|GCLOUD|CLOUDSDK|ALIBABA_CLOUD|ALICLOUD|TENCENTCLOUD|HCLOUD|DIGITALOCEAN|LINODE|VULTR|OCI|CLOUDFLARE|VAULT|NPM_CONFIG__AUTH|DOCKER_AUTH)(_|$)/i

export function isSecretVariableName(name: string): boolean {
  return SECRET_WORDS.test(name) || CONNECTION_STRINGS.test(name) || CLOUD_PREFIXES.test(name)
}
