// Checks of the C# client that need no service: webhook verification against the vectors every
// Cleaver client shares (clients/signature-vectors.json), HMAC-SHA256 against RFC 4231, an event
// type the client does not know kept as it is, and the JSON the client reads and writes. With a
// service URL and credentials it also checks the token: reused, then renewed RenewBefore before
// it expires (a clock moved forward).
//   ClientChecks <signature-vectors.json> [<url> <client id> <client secret>]
// Prints one line per check and "checks passed: N"; exits 1 at the first failure.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using Cleaver.Pos;

internal static class ClientChecks
{
    private static int passed;

    private static void Check(bool condition, string what)
    {
        if (!condition)
        {
            Console.WriteLine("FAILED: " + what);
            Environment.Exit(1);
        }
        passed++;
        Console.WriteLine("ok: " + what);
    }

    private static byte[] FromHex(string hex)
    {
        return Enumerable.Range(0, hex.Length / 2).Select(i => Convert.ToByte(hex.Substring(2 * i, 2), 16)).ToArray();
    }

    private static int Main(string[] args)
    {
        if (args.Length < 1)
        {
            Console.WriteLine("usage: ClientChecks <signature-vectors.json> [<url> <client id> <client secret>]");
            return 2;
        }
        var vectors = JsonValue.Parse(File.ReadAllText(args[0], Encoding.UTF8));

        foreach (var v in vectors["hmacSha256"].Items)
            using (var hmac = new HMACSHA256(FromHex(v.Str("keyHex"))))
                Check(BitConverter.ToString(hmac.ComputeHash(FromHex(v.Str("dataHex")))).Replace("-", "").ToLowerInvariant() == v.Str("mac"),
                    "HMAC-SHA256 " + v.Str("name"));

        foreach (var c in vectors["cases"].Items)
        {
            var headers = c["headers"].Members.Select(m => new KeyValuePair<string, string>(m.Key, m.Value.AsString())).ToList();
            string outcome;
            try
            {
                var verified = WebhookVerifier.Verify(Encoding.UTF8.GetBytes(c.Str("body")), headers, c.Str("secret", vectors.Str("secret")),
                    300, (long)c.Num("now"));
                outcome = "valid " + string.Join(",", verified.Schemes) + " " + verified.Event.EventType;
            }
            catch (WebhookVerificationException e)
            {
                outcome = "refused: " + e.Message;
            }
            var expected = c.Bool("valid")
                ? "valid " + string.Join(",", c["schemes"].Items.Select(s => s.AsString())) + " " + c.Str("eventType")
                : "refused: " + c.Str("error");
            if (outcome != expected) Console.WriteLine("  got      " + outcome + "\n  expected " + expected);
            Check(outcome == expected, "signature vector: " + c.Str("name"));
        }

        var unknown = CleaverEvent.FromJson(JsonValue.Parse(
            "{\"eventId\":\"e1\",\"eventType\":\"SOMETHING_ADDED_LATER\",\"orderId\":\"o1\",\"orderURL\":\"u\",\"createdAt\":\"t\",\"sourceAppId\":\"a\"}"));
        Check(unknown.EventType == "SOMETHING_ADDED_LATER", "an unknown event type is kept as written");
        var saved = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = new CultureInfo("pt-BR");
        Check(Json.Number(0.94) == "0.94", "weights are written with a decimal point, even under pt-BR");
        CultureInfo.CurrentCulture = saved;
        Check(Json.Quote("Boi \"Bravo\" \\ \n") == "\"Boi \\\"Bravo\\\" \\\\ \\n\"", "JSON strings are escaped");
        var parsed = JsonValue.Parse("{\"a\":[1,2.5,-3e2],\"s\":\"a\\u00e7\\\"\",\"n\":null,\"t\":true}");
        Check(parsed["a"].Count == 3 && parsed["a"][2].AsDouble() == -300 && parsed.Str("s") == "aç\"" && parsed.Str("n") == null &&
            parsed.Bool("t"), "JSON is read");
        try
        {
            JsonValue.Parse("{\"a\":1,}");
            Check(false, "malformed JSON is refused");
        }
        catch (FormatException)
        {
            Check(true, "malformed JSON is refused");
        }

        if (args.Length >= 4)
        {
            long now = 1000000;
            using (var client = new CleaverClient(args[1], args[2], args[3]) { Clock = () => now })
            {
                var first = client.GetAccessTokenAsync().GetAwaiter().GetResult();
                client.GetMerchantAsync().GetAwaiter().GetResult();
                Check(client.TokenRequestCount == 1 && client.GetAccessTokenAsync().GetAwaiter().GetResult() == first, "the token is reused");
                // 43,200 s of life: at 301 s before expiry it is still used, at 299 s it is renewed.
                now += (43200 - 301) * 1000L;
                Check(client.GetAccessTokenAsync().GetAwaiter().GetResult() == first && client.TokenRequestCount == 1,
                    "still reused 301 s before expiry");
                now += 2000;
                var second = client.GetAccessTokenAsync().GetAwaiter().GetResult();
                Check(client.TokenRequestCount == 2 && second != first, "renewed 299 s before expiry");
                client.GetMerchantAsync().GetAwaiter().GetResult();
                Check(client.TokenRequestCount == 2, "the renewed token is used");
            }
        }
        Console.WriteLine("checks passed: " + passed);
        return 0;
    }
}
