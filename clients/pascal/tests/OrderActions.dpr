// Every POS order action of the Pascal client against a live service, on orders the caller
// placed: a delivery order (confirm, a repeated confirm refused, ready, dispatch with tracking,
// tracking, a wrong and the right delivery code, delivered), a takeout order (confirm, preparing,
// details, ready, picked up), two orders whose customer asked to cancel (accepted; denied, then
// the POS's own cancellation request), and an order that does not exist.
//   OrderActions <url> <client id> <client secret> <delivery> <takeout> <accept> <deny> <preparation start>
// Prints one line per step; exits 1 on an unexpected error.
program OrderActions;

{$IFDEF FPC}{$mode delphi}{$ENDIF}
{$IFNDEF FPC}{$APPTYPE CONSOLE}{$ENDIF}

uses
  SysUtils, CleaverTypes, CleaverClient;

function Refusal(E: ECleaverApiError): string;
begin
  Result := IntToStr(E.Status) + ' ' + E.Title;
end;

var
  Client: TCleaverClient;
  Delivery, Takeout, Accept, Deny: string;
  Layouts: TCleaverScaleLabelLayouts;
  I: Integer;
begin
  if ParamCount <> 8 then
  begin
    WriteLn('usage: OrderActions <url> <client id> <client secret> <delivery> <takeout> <accept> <deny> <preparation start>');
    Halt(2);
  end;
  Delivery := ParamStr(4);
  Takeout := ParamStr(5);
  Accept := ParamStr(6);
  Deny := ParamStr(7);
  Client := TCleaverClient.Create(ParamStr(1), ParamStr(2), ParamStr(3));
  try
    try
      Client.Confirm(Delivery, 'PDV-1', 15);
      try
        Client.Confirm(Delivery, 'PDV-1');
        WriteLn('confirm again: accepted');
      except
        on E: ECleaverApiError do WriteLn('confirm again: ', Refusal(E));
      end;
      Client.ReadyForPickup(Delivery);
      Client.DispatchOrder(Delivery, '{"event":{"type":"DELIVERY_ONGOING","message":"Saiu"}}');
      Client.Tracking(Delivery, '{"geoLocalization":{"latitude":-23.55,"longitude":-46.63}}');
      WriteLn('wrong code valid: ', BoolToStr(Client.ValidateCode(Delivery, 'not-the-code'), True));
      WriteLn('customer code valid: ', BoolToStr(Client.ValidateCode(Delivery, Client.SandboxCustomerDeliveryCode(Delivery)), True));
      Client.Delivered(Delivery);
      WriteLn('delivery: ', Client.GetOrder(Delivery).LastEvent);

      Client.Confirm(Takeout, 'PDV-2');
      Client.Preparing(Takeout);
      Client.UpdateDetails(Takeout, ParamStr(8));
      WriteLn('takeout preparation starts: ', Client.GetOrder(Takeout).Json.Str('preparationStartDateTime'));
      Client.ReadyForPickup(Takeout);
      Client.PickedUp(Takeout);
      WriteLn('takeout: ', Client.GetOrder(Takeout).LastEvent);

      Client.AcceptCancellation(Accept);
      WriteLn('accepted: ', Client.GetOrder(Accept).LastEvent);
      Client.DenyCancellation(Deny, 'Ja saiu para entrega', 'DELIVERY_PROBLEM');
      WriteLn('denied: ', Client.GetOrder(Deny).LastEvent);
      Client.RequestCancellation(Deny, 'Sem estoque', 'UNAVAILABLE_ITEM', 'AUTO');
      WriteLn('cancellation requested: ', Client.GetOrder(Deny).LastEvent);

      // D41: the POS declares how its scale writes labels, and reads them back.
      try
        Layouts := Client.SetScaleLabelLayouts([ScaleLabelLayout('2', 6, 'WEIGHT', 5, 3),
          ScaleLabelLayout('21', 4, 'PRICE', 6, 2)]);
        Layouts := Client.GetScaleLabelLayouts;
        Write('scale label layouts:');
        for I := 0 to High(Layouts) do
          Write(' ', Layouts[I].Prefix, '/', Layouts[I].CodeDigits, '/', Layouts[I].Value, '/', Layouts[I].ValueDigits,
            '/', Layouts[I].Decimals);
        WriteLn;
      except
        on E: ECleaverApiError do WriteLn('scale label layouts: ', Refusal(E));
      end;

      try
        Client.GetOrder('00000000-0000-4000-8000-000000000000');
        WriteLn('missing order: found');
      except
        on E: ECleaverApiError do WriteLn('missing order: ', Refusal(E));
      end;
    except
      on E: ECleaverApiError do
      begin
        WriteLn('error: ', E.Method, ' ', E.Path, ' answered ', E.Status, ' ', E.Title);
        ExitCode := 1;
      end;
    end;
  finally
    Client.Free;
  end;
end.
