// Every POS order action of the C# client against a live service, on orders the caller placed: a
// delivery order (confirm, a repeated confirm refused, ready, dispatch with tracking, tracking, a
// wrong and the right delivery code, delivered), a takeout order (confirm, preparing, details,
// ready, picked up), two orders whose customer asked to cancel (accepted; denied, then the POS's
// own cancellation request), and an order that does not exist.
//   OrderActions <url> <client id> <client secret> <delivery> <takeout> <accept> <deny> <preparation start>
// Prints one line per step; exits 1 on an unexpected error.
using System;
using System.Linq;
using System.Threading.Tasks;
using Cleaver.Pos;

internal static class OrderActions
{
    private static int Main(string[] args)
    {
        if (args.Length != 8)
        {
            Console.WriteLine("usage: OrderActions <url> <client id> <client secret> <delivery> <takeout> <accept> <deny> <preparation start>");
            return 2;
        }
        try
        {
            Run(args).GetAwaiter().GetResult();
            return 0;
        }
        catch (CleaverApiException e)
        {
            Console.WriteLine("error: " + e.Method + " " + e.Path + " answered " + e.Status + " " + e.Title);
            return 1;
        }
    }

    private static async Task<string> Refusal(Func<Task> action)
    {
        try
        {
            await action();
            return "accepted";
        }
        catch (CleaverApiException e)
        {
            return e.Status + " " + e.Title;
        }
    }

    private static async Task Run(string[] args)
    {
        string delivery = args[3], takeout = args[4], accept = args[5], deny = args[6];
        using (var client = new CleaverClient(args[0], args[1], args[2]))
        {
            await client.ConfirmAsync(delivery, "PDV-1", 15);
            Console.WriteLine("confirm again: " + await Refusal(() => client.ConfirmAsync(delivery, "PDV-1")));
            await client.ReadyForPickupAsync(delivery);
            await client.DispatchAsync(delivery, "{\"event\":{\"type\":\"DELIVERY_ONGOING\",\"message\":\"Saiu\"}}");
            await client.TrackingAsync(delivery, "{\"geoLocalization\":{\"latitude\":-23.55,\"longitude\":-46.63}}");
            Console.WriteLine("wrong code valid: " + await client.ValidateCodeAsync(delivery, "not-the-code"));
            Console.WriteLine("customer code valid: " +
                await client.ValidateCodeAsync(delivery, await client.SandboxCustomerDeliveryCodeAsync(delivery)));
            await client.DeliveredAsync(delivery);
            Console.WriteLine("delivery: " + (await client.GetOrderAsync(delivery)).LastEvent);

            await client.ConfirmAsync(takeout, "PDV-2");
            await client.PreparingAsync(takeout);
            await client.UpdateDetailsAsync(takeout, args[7]);
            Console.WriteLine("takeout preparation starts: " + (await client.GetOrderAsync(takeout)).Json.Str("preparationStartDateTime"));
            await client.ReadyForPickupAsync(takeout);
            await client.PickedUpAsync(takeout);
            Console.WriteLine("takeout: " + (await client.GetOrderAsync(takeout)).LastEvent);

            await client.AcceptCancellationAsync(accept);
            Console.WriteLine("accepted: " + (await client.GetOrderAsync(accept)).LastEvent);
            await client.DenyCancellationAsync(deny, "Ja saiu para entrega", "DELIVERY_PROBLEM");
            Console.WriteLine("denied: " + (await client.GetOrderAsync(deny)).LastEvent);
            await client.RequestCancellationAsync(deny, "Sem estoque", "UNAVAILABLE_ITEM", "AUTO");
            Console.WriteLine("cancellation requested: " + (await client.GetOrderAsync(deny)).LastEvent);

            // D41: the POS declares how its scale writes labels, and reads them back.
            try
            {
                await client.SetScaleLabelLayoutsAsync(new[]
                {
                    new ScaleLabelLayout { Prefix = "2", CodeDigits = 6, Value = "WEIGHT", ValueDigits = 5, Decimals = 3 },
                    new ScaleLabelLayout { Prefix = "21", CodeDigits = 4, Value = "PRICE", ValueDigits = 6, Decimals = 2 },
                });
                Console.WriteLine("scale label layouts:" + string.Concat((await client.GetScaleLabelLayoutsAsync()).Select(l => " " + l)));
            }
            catch (CleaverApiException e)
            {
                Console.WriteLine("scale label layouts: " + e.Status + " " + e.Title);
            }
            Console.WriteLine("missing order: " + await Refusal(() => client.GetOrderAsync("00000000-0000-4000-8000-000000000000")));
        }
    }
}
