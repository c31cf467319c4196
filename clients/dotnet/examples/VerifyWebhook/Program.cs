// Verifies one webhook notification as a receiver gets it: the raw body bytes and the headers.
//   VerifyWebhook <client secret> <body file> <headers file>
// The headers file holds one "name: value" line per header. Prints "valid <schemes> <eventType>
// <orderId>" and exits 0, or "refused: <why>" and exits 1. A receiver does the same with the body
// and headers of the request in hand (in ASP.NET: Request.Body read to bytes, Request.Headers).
using System;
using System.Collections.Generic;
using System.IO;
using Cleaver.Pos;

internal static class VerifyWebhook
{
    private static int Main(string[] args)
    {
        if (args.Length != 3)
        {
            Console.WriteLine("usage: VerifyWebhook <client secret> <body file> <headers file>");
            return 2;
        }
        var headers = new List<KeyValuePair<string, string>>();
        foreach (var line in File.ReadAllLines(args[2]))
        {
            var colon = line.IndexOf(':');
            if (colon > 0) headers.Add(new KeyValuePair<string, string>(line.Substring(0, colon).Trim(), line.Substring(colon + 1).Trim()));
        }
        try
        {
            var verified = WebhookVerifier.Verify(File.ReadAllBytes(args[1]), headers, args[0]);
            Console.WriteLine("valid " + string.Join(",", verified.Schemes) + " " + verified.Event.EventType + " " + verified.Event.OrderId);
            return 0;
        }
        catch (WebhookVerificationException e)
        {
            Console.WriteLine("refused: " + e.Message);
            return 1;
        }
    }
}
