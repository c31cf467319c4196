// Verifies a webhook notification from Cleaver (D10). The platform signs every notification
// twice, keyed with the UTF-8 bytes of the client secret of the integration key that registered
// the webhook URL:
// - X-App-Signature: lowercase hex HMAC-SHA256 of the raw body (Open Delivery);
// - Standard Webhooks: webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>", with
//   webhook-timestamp at most 5 minutes from this machine's clock (a replay is refused), and
//   possibly several space-separated signatures in the header (key rotation): one must match.
// Every scheme present must verify, and at least one must be present. Verify the RAW body bytes
// as received: a body parsed and serialised again is not what was signed.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;

namespace Cleaver.Pos
{
    public sealed class VerifiedWebhook
    {
        public CleaverEvent Event { get; set; }
        /// <summary>The schemes present and verified: x-app-signature, standard-webhooks.</summary>
        public IList<string> Schemes { get; set; }
        /// <summary>webhook-id: the same on every retry of one occurrence (de-duplicate on it).</summary>
        public string WebhookId { get; set; }
    }

    public static class WebhookVerifier
    {
        /// <summary>
        /// Verifies body and headers (names in any case). The secret is the client secret as issued,
        /// or the whsec_+base64 form Standard Webhooks libraries take. nowUnix null means this
        /// machine's clock. Throws WebhookVerificationException saying what failed.
        /// </summary>
        public static VerifiedWebhook Verify(byte[] body, IEnumerable<KeyValuePair<string, string>> headers, string secret,
            int toleranceSeconds = 300, long? nowUnix = null)
        {
            var key = Key(secret);
            var schemes = new List<string>();
            string webhookId = null;
            var bag = headers.ToList();

            var appSignature = Header(bag, "x-app-signature");
            if (appSignature != null)
            {
                if (!Regex.IsMatch(appSignature, "^[0-9a-f]{64}$"))
                    throw new WebhookVerificationException("X-App-Signature is malformed");
                byte[] expected;
                using (var hmac = new HMACSHA256(key)) expected = hmac.ComputeHash(body);
                if (!FixedTimeEquals(Encoding.ASCII.GetBytes(Hex(expected)), Encoding.ASCII.GetBytes(appSignature)))
                    throw new WebhookVerificationException("X-App-Signature does not match the body");
                schemes.Add("x-app-signature");
            }

            var id = Header(bag, "webhook-id");
            var timestamp = Header(bag, "webhook-timestamp");
            var signature = Header(bag, "webhook-signature");
            if (id != null || timestamp != null || signature != null)
            {
                if (string.IsNullOrEmpty(id) || string.IsNullOrEmpty(timestamp) || string.IsNullOrEmpty(signature))
                    throw new WebhookVerificationException("webhook-id, webhook-timestamp and webhook-signature must all be present");
                long sent;
                if (!Regex.IsMatch(timestamp, "^[0-9]{1,18}$") || !long.TryParse(timestamp, out sent))
                    throw new WebhookVerificationException("webhook-timestamp is malformed");
                var now = nowUnix ?? DateTimeOffset.UtcNow.ToUnixTimeSeconds();
                if (Math.Abs(now - sent) > toleranceSeconds)
                    throw new WebhookVerificationException("webhook-timestamp is outside the tolerance (replay or clock skew)");
                var prefix = Encoding.UTF8.GetBytes(id + "." + timestamp + ".");
                var signed = new byte[prefix.Length + body.Length];
                Buffer.BlockCopy(prefix, 0, signed, 0, prefix.Length);
                Buffer.BlockCopy(body, 0, signed, prefix.Length, body.Length);
                byte[] expected;
                using (var hmac = new HMACSHA256(key)) expected = hmac.ComputeHash(signed);
                var matched = false;
                // Every candidate is compared, even after a match: the time taken does not say which matched.
                foreach (var part in signature.Split(' '))
                {
                    if (!part.StartsWith("v1,", StringComparison.Ordinal)) continue;
                    byte[] candidate;
                    try { candidate = Convert.FromBase64String(part.Substring(3)); }
                    catch (FormatException) { candidate = new byte[0]; }
                    if (FixedTimeEquals(expected, candidate)) matched = true;
                }
                if (!matched) throw new WebhookVerificationException("webhook-signature does not match the body");
                schemes.Add("standard-webhooks");
                webhookId = id;
            }

            if (schemes.Count == 0) throw new WebhookVerificationException("the notification carries no signature");
            JsonValue json;
            try { json = JsonValue.Parse(new UTF8Encoding(false, true).GetString(body)); }
            catch (Exception) { throw new WebhookVerificationException("the body is not JSON"); }
            if (json.Kind != JsonKind.Object) throw new WebhookVerificationException("the body is not a JSON object");
            return new VerifiedWebhook { Event = CleaverEvent.FromJson(json), Schemes = schemes, WebhookId = webhookId };
        }

        /// <summary>The key bytes: the UTF-8 bytes of a client secret, or the decoded part of whsec_….</summary>
        public static byte[] Key(string secret)
        {
            return secret.StartsWith("whsec_", StringComparison.Ordinal)
                ? Convert.FromBase64String(secret.Substring(6))
                : Encoding.UTF8.GetBytes(secret);
        }

        /// <summary>
        /// Compares every byte whatever the first difference, so that the time taken says nothing
        /// about how much of a forged signature was right (CryptographicOperations.FixedTimeEquals
        /// is not in .NET Framework 4.6.1 nor .NET Standard 2.0).
        /// </summary>
        public static bool FixedTimeEquals(byte[] a, byte[] b)
        {
            if (a.Length != b.Length) return false;
            var diff = 0;
            for (var i = 0; i < a.Length; i++) diff |= a[i] ^ b[i];
            return diff == 0;
        }

        private static string Header(List<KeyValuePair<string, string>> headers, string name)
        {
            foreach (var h in headers)
                if (string.Equals(h.Key.Trim(), name, StringComparison.OrdinalIgnoreCase)) return h.Value.Trim();
            return null;
        }

        private static string Hex(byte[] bytes)
        {
            var sb = new StringBuilder(bytes.Length * 2);
            foreach (var b in bytes) sb.Append(b.ToString("x2"));
            return sb.ToString();
        }
    }
}
