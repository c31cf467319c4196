// A POS's whole order flow against Cleaver, with the C# client:
// token → catalog (with cuts) → poll → order details → confirm → weigh (by scale label, or by
// weight) → ready → dispatch → acknowledge → the key's request log.
//
// Settings come from the environment:
//   CLEAVER_URL, CLEAVER_CLIENT_ID, CLEAVER_CLIENT_SECRET  the service and the integration key
//   CLEAVER_SCALE_LABEL  the 13-digit label the scale printed for the KG line (D41); when absent,
//                        CLEAVER_SCALE_KG, the weight in kg typed at the counter
//   CLEAVER_WAIT_SECONDS how long to wait for an order (default 60)
// Exits 0 once one order went through the whole flow, 1 on an error (its title is printed).
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Threading.Tasks;
using Cleaver.Pos;

internal static class OrderFlow
{
    private static string Setting(string name, string fallback)
    {
        var value = Environment.GetEnvironmentVariable(name);
        return string.IsNullOrEmpty(value) ? fallback : value;
    }

    private static int Main()
    {
        try
        {
            return Run().GetAwaiter().GetResult();
        }
        catch (CleaverApiException e)
        {
            Console.WriteLine("error: " + e.Method + " " + e.Path + " answered " + e.Status + " " + e.Title);
            return 1;
        }
        catch (Exception e)
        {
            Console.WriteLine("error: " + e.Message);
            return 1;
        }
    }

    private static async Task<int> Run()
    {
        using (var client = new CleaverClient(Setting("CLEAVER_URL", "http://127.0.0.1:3000"),
            Environment.GetEnvironmentVariable("CLEAVER_CLIENT_ID"), Environment.GetEnvironmentVariable("CLEAVER_CLIENT_SECRET")))
        {
            await client.GetAccessTokenAsync();
            Console.WriteLine("token: obtained (" + client.TokenRequestCount + " request)");

            // The catalog as published: a POS matches an order line's cut option against these (D37).
            var merchant = await client.GetMerchantAsync();
            foreach (var product in merchant.Products)
                Console.WriteLine("product: " + product.Name + " (" + product.Unit + ")" +
                    string.Concat(product.Cuts.Select(c => " cut " + c.Id + "=" + c.Name)));

            // Poll until an order arrives. Types are printed as the service wrote them: a type this
            // program does not know is still acknowledged once handled, as that type.
            var waitSeconds = int.Parse(Setting("CLEAVER_WAIT_SECONDS", "60"), CultureInfo.InvariantCulture);
            var handled = new List<CleaverEvent>();
            string orderId = null;
            for (var waited = 0; orderId == null; waited++)
            {
                foreach (var e in await client.PollEventsAsync())
                {
                    Console.WriteLine("event: " + e.EventType + " order " + e.OrderId);
                    if (orderId == null && e.EventType == EventTypes.Created) orderId = e.OrderId;
                    handled.Add(e);
                }
                if (orderId != null) break;
                if (waited >= waitSeconds) throw new Exception("no order arrived");
                await Task.Delay(1000);
            }

            var order = await client.GetOrderAsync(orderId);
            Console.WriteLine("order: " + order.DisplayId + " " + order.Type + " " + order.LastEvent + " " + order.OrderAmount);
            foreach (var item in order.Items)
                Console.WriteLine("  item " + item.Index + ": " + item.Name + " " + Json.Number(item.Quantity) + " " + item.Unit + " " +
                    item.TotalPrice + " " + item.CutName);

            await client.ConfirmAsync(orderId, "PDV-" + order.DisplayId, 20);
            Console.WriteLine("confirmed");

            // Weigh the KG line: the label the scale printed (the pack's legal weight or price), or
            // the weight typed at the counter.
            var label = Environment.GetEnvironmentVariable("CLEAVER_SCALE_LABEL");
            var kg = order.Items.FirstOrDefault(i => i.Unit == "KG");
            if (kg != null)
            {
                var line = !string.IsNullOrEmpty(label)
                    ? WeighedLine.ByLabel(kg.Index, label)
                    : WeighedLine.ByQuantity(kg.Index, double.Parse(Setting("CLEAVER_SCALE_KG", Json.Number(kg.Quantity)), CultureInfo.InvariantCulture));
                var weighing = await client.WeighAsync(orderId, new[] { line });
                if (weighing.State != null)
                    Console.WriteLine("weighing " + weighing.WeighingId + ": " + weighing.State + " until " + weighing.Deadline);
            }
            order = await client.GetOrderAsync(orderId);
            foreach (var item in order.Items.Where(i => i.OrderedQuantity.HasValue))
                Console.WriteLine("weighed: item " + item.Index + " " + Json.Number(item.Quantity) + " kg (ordered " +
                    Json.Number(item.OrderedQuantity.Value) + ") " + item.TotalPrice + " label " + item.ScaleLabel);
            Console.WriteLine("total: " + order.OrderAmount);

            await client.ReadyForPickupAsync(orderId);
            Console.WriteLine("ready for pickup");
            await client.DispatchAsync(orderId);
            Console.WriteLine("dispatched");

            // Only now, with the order handled, are its events acknowledged (spec 4.13), as polled;
            // then whatever else is pending for it.
            await client.AcknowledgeEventsAsync(handled);
            var more = await client.PollEventsAsync();
            await client.AcknowledgeEventsAsync(more);
            Console.WriteLine("acknowledged: " + (handled.Count + more.Count) + " events");

            foreach (var entry in (await client.ListRequestsAsync(5)).Items)
                Console.WriteLine("request log: " + entry.Method + " " + entry.Path + " " + entry.Status);

            Console.WriteLine("order flow complete: " + orderId + " " + (await client.GetOrderAsync(orderId)).LastEvent +
                " (token requests: " + client.TokenRequestCount + ")");
            return 0;
        }
    }
}
