// Checks of the Pascal client that need no service: SHA-256 and HMAC-SHA256 against FIPS 180-4
// and RFC 4231, webhook verification against the vectors every Cleaver client shares
// (clients/signature-vectors.json), an event type the client does not know kept as it is, and
// the JSON the client writes. With a service URL and credentials it also checks the token:
// reused, then renewed RenewBeforeSeconds before it expires (a clock moved forward).
//   ClientChecks <signature-vectors.json> [<url> <client id> <client secret>]
// Prints one line per check and `checks passed: N`; exits 1 at the first failure.
program ClientChecks;

{$IFDEF FPC}{$mode delphi}{$ENDIF}
{$IFNDEF FPC}{$APPTYPE CONSOLE}{$ENDIF}

uses
  SysUtils, Classes, CleaverTypes, CleaverSha256, CleaverEvents, CleaverWebhooks, CleaverClient,
  {$IFDEF FPC}CleaverPlatformFpc{$ELSE}CleaverPlatformDelphi{$ENDIF};

var
  Passed: Integer = 0;
  FakeNow: Int64 = 0;

procedure Check(Condition: Boolean; const What: string);
begin
  if not Condition then
  begin
    WriteLn('FAILED: ', What);
    Halt(1);
  end;
  Inc(Passed);
  WriteLn('ok: ', What);
end;

function HexToBytes(const Hex: string): TBytes;
var
  I: Integer;
begin
  Result := nil;
  SetLength(Result, Length(Hex) div 2);
  for I := 0 to Length(Result) - 1 do
    Result[I] := StrToInt('$' + Copy(Hex, 2 * I + 1, 2));
end;

function ReadFileText(const Path: string): string;
var
  Stream: TFileStream;
  Bytes: TBytes;
begin
  Stream := TFileStream.Create(Path, fmOpenRead or fmShareDenyWrite);
  try
    Bytes := nil;
    SetLength(Bytes, Stream.Size);
    if Stream.Size > 0 then Stream.ReadBuffer(Bytes[0], Stream.Size);
  finally
    Stream.Free;
  end;
  Result := Utf8Text(Bytes);
end;

function FakeClock: Int64;
begin
  Result := FakeNow;
end;

procedure CheckHashes(const Vectors: ICleaverJson);
var
  List, V: ICleaverJson;
  I: Integer;
begin
  List := Vectors.Field('sha256');
  for I := 0 to List.Count - 1 do
  begin
    V := List.Item(I);
    Check(BytesToHex(Sha256(Utf8Bytes(V.Str('input')))) = V.Str('digest'),
      Format('SHA-256 of a %d-byte input', [Length(V.Str('input'))]));
  end;
  List := Vectors.Field('hmacSha256');
  for I := 0 to List.Count - 1 do
  begin
    V := List.Item(I);
    Check(BytesToHex(HmacSha256(HexToBytes(V.Str('keyHex')), HexToBytes(V.Str('dataHex')))) = V.Str('mac'),
      'HMAC-SHA256 ' + V.Str('name'));
  end;
  Check(ConstantTimeEqual(HexToBytes('00ff'), HexToBytes('00ff')) and
    not ConstantTimeEqual(HexToBytes('00ff'), HexToBytes('00fe')) and
    not ConstantTimeEqual(HexToBytes('00ff'), HexToBytes('00')), 'constant-time comparison');
end;

procedure CheckSignatureVectors(const Vectors: ICleaverJson);
var
  Cases, C, HeaderJson: ICleaverJson;
  Headers: TStringList;
  I, J: Integer;
  Secret, Outcome, Expected: string;
  Verified: TVerifiedWebhook;
begin
  Cases := Vectors.Field('cases');
  Headers := TStringList.Create;
  try
    for I := 0 to Cases.Count - 1 do
    begin
      C := Cases.Item(I);
      Headers.Clear;
      HeaderJson := C.Field('headers');
      for J := 0 to HeaderJson.Count - 1 do
        Headers.Add(HeaderJson.MemberName(J) + '=' + HeaderJson.Item(J).AsString);
      Secret := C.Str('secret', Vectors.Str('secret'));
      try
        Verified := VerifyWebhook(Utf8Bytes(C.Str('body')), Headers, Secret, 300, Round(C.Num('now')));
        Outcome := 'valid ' + Verified.Schemes + ' ' + Verified.Event.EventType;
      except
        on E: ECleaverWebhookError do Outcome := 'refused: ' + E.Message;
      end;
      if C.Bool('valid') then
      begin
        Expected := 'valid ';
        for J := 0 to C.Field('schemes').Count - 1 do
        begin
          if J > 0 then Expected := Expected + ',';
          Expected := Expected + C.Field('schemes').Item(J).AsString;
        end;
        Expected := Expected + ' ' + C.Str('eventType');
      end
      else
        Expected := 'refused: ' + C.Str('error');
      if Outcome <> Expected then WriteLn('  got      ', Outcome, sLineBreak, '  expected ', Expected);
      Check(Outcome = Expected, 'signature vector: ' + C.Str('name'));
    end;
  finally
    Headers.Free;
  end;
end;

procedure CheckOffline;
var
  Event: TCleaverEvent;
begin
  Event := EventFromJson(ParseJson(
    '{"eventId":"e1","eventType":"SOMETHING_ADDED_LATER","orderId":"o1","orderURL":"u","createdAt":"t","sourceAppId":"a"}'));
  Check(Event.EventType = 'SOMETHING_ADDED_LATER', 'an unknown event type is kept as written');
  Check(JsonNumber(0.94) = '0.94', 'weights are written with a decimal point');
  Check((ParseJson('{"q":2.504,"n":3}').Field('q').AsString = '2.504') and
    (ParseJson('{"q":2.504,"n":3}').Str('n') = '3'), 'numbers read as text as JSON writes them');
  Check(UrlEncode('a b/c:d') = 'a%20b%2Fc%3Ad', 'path segments and query values are percent-encoded');
  Check(JsonQuote('Boi "Bravo" \') = '"Boi \"Bravo\" \\"', 'JSON strings are escaped');
end;

procedure CheckTokenRenewal(const Url, ClientId, Secret: string);
var
  Client: TCleaverClient;
  First, Second: string;
begin
  Client := TCleaverClient.Create(Url, ClientId, Secret);
  try
    FakeNow := 1000000;
    Client.Clock := FakeClock;
    First := Client.AccessToken;
    Client.GetMerchant;
    Check((Client.TokenRequestCount = 1) and (Client.AccessToken = First), 'the token is reused');
    // 43,200 s of life: at 301 s before expiry it is still used, at 299 s it is renewed.
    FakeNow := FakeNow + (43200 - 301) * Int64(1000);
    Check((Client.AccessToken = First) and (Client.TokenRequestCount = 1), 'still reused 301 s before expiry');
    FakeNow := FakeNow + 2000;
    Second := Client.AccessToken;
    Check((Client.TokenRequestCount = 2) and (Second <> First), 'renewed 299 s before expiry');
    Client.GetMerchant;
    Check(Client.TokenRequestCount = 2, 'the renewed token is used');
  finally
    Client.Free;
  end;
end;

var
  Vectors: ICleaverJson;
begin
  if ParamCount < 1 then
  begin
    WriteLn('usage: ClientChecks <signature-vectors.json> [<url> <client id> <client secret>]');
    Halt(2);
  end;
  Vectors := ParseJson(ReadFileText(ParamStr(1)));
  CheckHashes(Vectors);
  CheckSignatureVectors(Vectors);
  CheckOffline;
  if ParamCount >= 4 then CheckTokenRenewal(ParamStr(2), ParamStr(3), ParamStr(4));
  WriteLn('checks passed: ', Passed);
end.
