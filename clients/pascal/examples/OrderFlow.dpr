// A POS's whole order flow against Cleaver, with the Pascal client:
// token → catalog (with cuts) → poll → order details → confirm → weigh (by scale label, or by
// weight) → ready → dispatch → acknowledge → the key's request log.
//
// Settings come from the environment:
//   CLEAVER_URL, CLEAVER_CLIENT_ID, CLEAVER_CLIENT_SECRET  the service and the integration key
//   CLEAVER_SCALE_LABEL  the 13-digit label the scale printed for the KG line (D41); when absent,
//                        CLEAVER_SCALE_KG, the weight in kg typed at the counter
//   CLEAVER_WAIT_SECONDS how long to wait for an order (default 60)
// Exits 0 once one order went through the whole flow, 1 on an error (its title is printed).
program OrderFlow;

{$IFDEF FPC}{$mode delphi}{$ENDIF}
{$IFNDEF FPC}{$APPTYPE CONSOLE}{$ENDIF}

uses
  SysUtils, CleaverTypes, CleaverEvents, CleaverClient,
  {$IFDEF FPC}CleaverPlatformFpc{$ELSE}CleaverPlatformDelphi{$ENDIF};

function Setting(const Name, Default: string): string;
begin
  Result := GetEnvironmentVariable(Name);
  if Result = '' then Result := Default;
end;

function Money(const Price: TCleaverPrice): string;
begin
  Result := Price.Currency + ' ' + JsonNumber(Price.Value);
end;

var
  Client: TCleaverClient;
  Merchant: TCleaverMerchant;
  Events, Handled, More: TCleaverEventArray;
  Order: TCleaverOrder;
  Weighing: TCleaverWeighingAnswer;
  Page: TCleaverRequestLogPage;
  OrderId, ScaleLabel: string;
  I, J, Waited, WaitSeconds: Integer;
begin
  Client := TCleaverClient.Create(Setting('CLEAVER_URL', 'http://127.0.0.1:3000'),
    GetEnvironmentVariable('CLEAVER_CLIENT_ID'), GetEnvironmentVariable('CLEAVER_CLIENT_SECRET'));
  try
    try
      Client.AccessToken;
      WriteLn('token: obtained (', Client.TokenRequestCount, ' request)');

      // The catalog as published: a POS matches an order line's cut option against these (D37).
      Merchant := Client.GetMerchant;
      for I := 0 to High(Merchant.Products) do
      begin
        Write('product: ', Merchant.Products[I].Name, ' (', Merchant.Products[I].UnitCode, ')');
        for J := 0 to High(Merchant.Products[I].Cuts) do
          Write(' cut ', Merchant.Products[I].Cuts[J].Id, '=', Merchant.Products[I].Cuts[J].Name);
        WriteLn;
      end;

      // Poll until an order arrives. Types are printed as the service wrote them: a type this
      // program does not know is still acknowledged once handled, as that type.
      WaitSeconds := StrToIntDef(Setting('CLEAVER_WAIT_SECONDS', '60'), 60);
      OrderId := '';
      Handled := nil;
      Waited := 0;
      while OrderId = '' do
      begin
        Events := Client.PollEvents([]);
        for I := 0 to High(Events) do
        begin
          WriteLn('event: ', Events[I].EventType, ' order ', Events[I].OrderId);
          if (OrderId = '') and (Events[I].EventType = EVENT_CREATED) then OrderId := Events[I].OrderId;
          SetLength(Handled, Length(Handled) + 1);
          Handled[High(Handled)] := Events[I];
        end;
        if OrderId <> '' then Break;
        if Waited >= WaitSeconds then raise Exception.Create('no order arrived');
        SleepMs(1000);
        Inc(Waited);
      end;

      Order := Client.GetOrder(OrderId);
      WriteLn('order: ', Order.DisplayId, ' ', Order.OrderType, ' ', Order.LastEvent, ' ', Money(Order.OrderAmount));
      for I := 0 to High(Order.Items) do
        WriteLn('  item ', I, ': ', Order.Items[I].Name, ' ', JsonNumber(Order.Items[I].Quantity), ' ',
          Order.Items[I].UnitCode, ' ', Money(Order.Items[I].TotalPrice), ' ', Order.Items[I].CutName);

      Client.Confirm(OrderId, 'PDV-' + Order.DisplayId, 20);
      WriteLn('confirmed');

      // Weigh the KG lines: the label the scale printed (the pack's legal weight or price), or
      // the weight typed at the counter.
      ScaleLabel := GetEnvironmentVariable('CLEAVER_SCALE_LABEL');
      for I := 0 to High(Order.Items) do
        if Order.Items[I].UnitCode = 'KG' then
        begin
          if ScaleLabel <> '' then
            Weighing := Client.Weigh(OrderId, [WeighedLabel(I, ScaleLabel)])
          else
            Weighing := Client.Weigh(OrderId, [WeighedQuantity(I,
              StrToFloat(Setting('CLEAVER_SCALE_KG', JsonNumber(Order.Items[I].Quantity)),
              JsonFormatSettings))]);
          if Weighing.State <> '' then
            WriteLn('weighing ', Weighing.WeighingId, ': ', Weighing.State, ' until ', Weighing.Deadline);
          Break;
        end;
      Order := Client.GetOrder(OrderId);
      for I := 0 to High(Order.Items) do
        if Order.Items[I].OrderedQuantity > 0 then
          WriteLn('weighed: item ', I, ' ', JsonNumber(Order.Items[I].Quantity), ' kg (ordered ',
            JsonNumber(Order.Items[I].OrderedQuantity), ') ', Money(Order.Items[I].TotalPrice),
            ' label ', Order.Items[I].ScaleLabel);
      WriteLn('total: ', Money(Order.OrderAmount));

      Client.ReadyForPickup(OrderId);
      WriteLn('ready for pickup');
      Client.DispatchOrder(OrderId);
      WriteLn('dispatched');

      // Only now, with the order handled, are its events acknowledged (spec 4.13), as polled;
      // then whatever else is pending for it.
      Client.AcknowledgeEvents(Handled);
      More := Client.PollEvents([]);
      Client.AcknowledgeEvents(More);
      WriteLn('acknowledged: ', Length(Handled) + Length(More), ' events');

      Page := Client.ListRequests(5);
      for I := 0 to High(Page.Items) do
        WriteLn('request log: ', Page.Items[I].Method, ' ', Page.Items[I].Path, ' ', Page.Items[I].Status);

      WriteLn('order flow complete: ', OrderId, ' ', Client.GetOrder(OrderId).LastEvent,
        ' (token requests: ', Client.TokenRequestCount, ')');
    except
      on E: ECleaverApiError do
      begin
        WriteLn('error: ', E.Method, ' ', E.Path, ' answered ', E.Status, ' ', E.Title);
        ExitCode := 1;
      end;
      on E: Exception do
      begin
        WriteLn('error: ', E.Message);
        ExitCode := 1;
      end;
    end;
  finally
    Client.Free;
  end;
end.
