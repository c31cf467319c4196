// Verifies a webhook notification from Cleaver (D10). The platform signs every notification
// twice, keyed with the UTF-8 bytes of the client secret of the integration key that registered
// the webhook URL:
// - X-App-Signature: lowercase hex HMAC-SHA256 of the raw body (Open Delivery);
// - Standard Webhooks: webhook-signature `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, with
//   webhook-timestamp at most 5 minutes from this machine's clock (a replay is refused), and
//   possibly several space-separated signatures in the header (key rotation): one must match.
// Every scheme present must verify, and at least one must be present. Verify the RAW body bytes
// as received: a body parsed and serialised again is not what was signed.
unit CleaverWebhooks;

{$IFDEF FPC}{$mode delphi}{$ENDIF}

interface

uses
  SysUtils, Classes, CleaverTypes, CleaverEvents;

type
  TVerifiedWebhook = record
    Event: TCleaverEvent;
    /// The schemes present and verified: 'x-app-signature', 'standard-webhooks' or both, comma-separated.
    Schemes: string;
    /// webhook-id: the same on every retry of one occurrence (de-duplicate on it).
    WebhookId: string;
  end;

/// Headers as `Name=Value` lines (names in any case). Secret is the client secret as issued, or
/// the `whsec_`+base64 form Standard Webhooks libraries take. NowUnix < 0 means this machine's
/// clock. Raises ECleaverWebhookError saying what failed.
function VerifyWebhook(const Body: TBytes; Headers: TStrings; const Secret: string;
  ToleranceSeconds: Integer = 300; NowUnix: Int64 = -1): TVerifiedWebhook;

/// The key bytes of a secret: the UTF-8 bytes of a client secret, or the decoded part of `whsec_…`.
function WebhookKey(const Secret: string): TBytes;

implementation

uses
  CleaverSha256,
  {$IFDEF FPC}CleaverPlatformFpc{$ELSE}CleaverPlatformDelphi{$ENDIF};

function HeaderValue(Headers: TStrings; const Name: string; out Value: string): Boolean;
var
  I, Eq: Integer;
begin
  for I := 0 to Headers.Count - 1 do
  begin
    Eq := Pos('=', Headers[I]);
    if (Eq > 0) and SameText(Trim(Copy(Headers[I], 1, Eq - 1)), Name) then
    begin
      Value := Trim(Copy(Headers[I], Eq + 1, MaxInt));
      Exit(True);
    end;
  end;
  Value := '';
  Result := False;
end;

function WebhookKey(const Secret: string): TBytes;
begin
  if Copy(Secret, 1, 6) = 'whsec_' then
    Result := Base64Decode(Copy(Secret, 7, MaxInt))
  else
    Result := Utf8Bytes(Secret);
end;

function IsLowerHex(const S: string; Len: Integer): Boolean;
var
  I: Integer;
begin
  Result := Length(S) = Len;
  if Result then
    for I := 1 to Length(S) do
      if not CharInSet(S[I], ['0'..'9', 'a'..'f']) then Exit(False);
end;

function IsDigits(const S: string): Boolean;
var
  I: Integer;
begin
  Result := (S <> '') and (Length(S) <= 18);
  if Result then
    for I := 1 to Length(S) do
      if not CharInSet(S[I], ['0'..'9']) then Exit(False);
end;

function Concat3(const A, B: TBytes): TBytes;
begin
  Result := nil;
  SetLength(Result, Length(A) + Length(B));
  if Length(A) > 0 then Move(A[0], Result[0], Length(A));
  if Length(B) > 0 then Move(B[0], Result[Length(A)], Length(B));
end;

function VerifyWebhook(const Body: TBytes; Headers: TStrings; const Secret: string;
  ToleranceSeconds: Integer; NowUnix: Int64): TVerifiedWebhook;
var
  Key, Expected, Candidate: TBytes;
  AppSignature, Id, Timestamp, Signature, Part: string;
  HasApp, HasId, HasTimestamp, HasSignature, Matched: Boolean;
  Parts: TStringList;
  I: Integer;
  Json: ICleaverJson;
begin
  Key := WebhookKey(Secret);
  Result.Schemes := '';
  Result.WebhookId := '';

  HasApp := HeaderValue(Headers, 'x-app-signature', AppSignature);
  if HasApp then
  begin
    if not IsLowerHex(AppSignature, 64) then
      raise ECleaverWebhookError.Create('X-App-Signature is malformed');
    if not ConstantTimeEqual(Utf8Bytes(BytesToHex(HmacSha256(Key, Body))), Utf8Bytes(AppSignature)) then
      raise ECleaverWebhookError.Create('X-App-Signature does not match the body');
    Result.Schemes := 'x-app-signature';
  end;

  HasId := HeaderValue(Headers, 'webhook-id', Id);
  HasTimestamp := HeaderValue(Headers, 'webhook-timestamp', Timestamp);
  HasSignature := HeaderValue(Headers, 'webhook-signature', Signature);
  if HasId or HasTimestamp or HasSignature then
  begin
    if (Id = '') or (Timestamp = '') or (Signature = '') then
      raise ECleaverWebhookError.Create('webhook-id, webhook-timestamp and webhook-signature must all be present');
    if not IsDigits(Timestamp) then
      raise ECleaverWebhookError.Create('webhook-timestamp is malformed');
    if NowUnix < 0 then NowUnix := UnixNowSeconds;
    if Abs(NowUnix - StrToInt64(Timestamp)) > ToleranceSeconds then
      raise ECleaverWebhookError.Create('webhook-timestamp is outside the tolerance (replay or clock skew)');
    Expected := HmacSha256(Key, Concat3(Utf8Bytes(Id + '.' + Timestamp + '.'), Body));
    Matched := False;
    Parts := TStringList.Create;
    try
      Parts.Delimiter := ' ';
      Parts.StrictDelimiter := True;
      Parts.DelimitedText := Signature;
      // Every candidate is compared, even after a match: the time taken does not say which matched.
      for I := 0 to Parts.Count - 1 do
      begin
        Part := Parts[I];
        if Copy(Part, 1, 3) <> 'v1,' then Continue;
        try
          Candidate := Base64Decode(Copy(Part, 4, MaxInt));
        except
          Candidate := nil;
        end;
        if ConstantTimeEqual(Expected, Candidate) then Matched := True;
      end;
    finally
      Parts.Free;
    end;
    if not Matched then
      raise ECleaverWebhookError.Create('webhook-signature does not match the body');
    if Result.Schemes <> '' then Result.Schemes := Result.Schemes + ',';
    Result.Schemes := Result.Schemes + 'standard-webhooks';
    Result.WebhookId := Id;
  end;

  if Result.Schemes = '' then
    raise ECleaverWebhookError.Create('the notification carries no signature');
  try
    Json := ParseJson(Utf8Text(Body));
  except
    raise ECleaverWebhookError.Create('the body is not JSON');
  end;
  if Json.Kind <> jkObject then
    raise ECleaverWebhookError.Create('the body is not a JSON object');
  Result.Event := EventFromJson(Json);
end;

end.
