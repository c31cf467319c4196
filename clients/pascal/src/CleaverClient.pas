// The merchant-side (POS) client of Cleaver, for Delphi and Free Pascal ({$mode delphi}).
// What it does for the integrator, as @cleaver/pos-client does for JavaScript:
// - one OAuth token (client credentials, spec 4.1) kept and reused until RenewBeforeSeconds
//   before it expires, then renewed; a 401 gets one new token and one resend (spec 5.1.4);
// - 429 and 503 retried with backoff, honouring Retry-After; a connection that could not be made
//   is retried; one that broke mid-request is retried only for calls the spec makes safe to
//   repeat, and the "already done" refusal of such a repeat counts as success (D7);
// - events keep the type the service wrote (CleaverEvents), and are acknowledged as polled;
// - every POS order action, weighing by quantity or by scale label (D38, D41), the catalog's cuts
//   (D37), and the key's request log.
unit CleaverClient;

{$IFDEF FPC}{$mode delphi}{$ENDIF}

interface

uses
  SysUtils, Classes, CleaverTypes, CleaverEvents,
  {$IFDEF FPC}CleaverPlatformFpc{$ELSE}CleaverPlatformDelphi{$ENDIF};

const
  /// D4: at most 100 elements per acknowledgment request.
  ACK_BATCH_LIMIT = 100;
  /// D7: the refusal of an action the order already has (400; 422 with the opendelivery profile).
  ALREADY_DONE_TITLE = 'Order has already same event type';
  /// D7: accept/deny when no customer request is open (any more).
  NO_REQUEST_TITLE = 'No cancellation request to answer';

type
  /// Milliseconds of a steady clock (for token expiry); replaceable to test renewal.
  TCleaverClock = function: Int64;

  TCleaverHttpAnswerCheck = function(const Answer: TCleaverHttpAnswer): Boolean of object;

  TCleaverPrice = record
    Value: Double;
    Currency: string;
  end;

  TCleaverOrderItem = record
    Index: Integer;
    Id: string;
    Name: string;
    ExternalCode: string;
    /// 'KG' or 'UN'.
    UnitCode: string;
    /// The weighed kilograms once the line is weighed (D38), else as ordered.
    Quantity: Double;
    /// Once weighed: the quantity the customer ordered; 0 before.
    OrderedQuantity: Double;
    UnitPrice: TCleaverPrice;
    TotalPrice: TCleaverPrice;
    /// The scale label the line was weighed with (D41), or ''.
    ScaleLabel: string;
    /// The chosen cut (D37): the first option's id and name, or ''.
    CutId: string;
    CutName: string;
  end;

  TCleaverOrder = record
    Id: string;
    DisplayId: string;
    OrderType: string;
    LastEvent: string;
    CreatedAt: string;
    CustomerName: string;
    Items: array of TCleaverOrderItem;
    ItemsPrice: TCleaverPrice;
    OrderAmount: TCleaverPrice;
    /// D38: for a prepaid order once weighed, what the platform settles (+ charge, − refund).
    HasWeighingAdjustment: Boolean;
    WeighingAdjustment: TCleaverPrice;
    /// The whole order as the service answered it.
    Json: ICleaverJson;
  end;

  /// One weighed line (D38, D41): a quantity in kg, or a 13-digit scale label.
  TCleaverWeighedLine = record
    Index: Integer;
    Quantity: Double;
    ScaleLabel: string;
  end;

  /// How the merchant's scale writes its EAN-13 labels (D41): prefix (1–2 digits), product code
  /// digits (4–6), value digits (5–7), the three adding up to 12; Value is WEIGHT (Decimals 3,
  /// kg) or PRICE (Decimals 2, BRL).
  TCleaverScaleLabelLayout = record
    Prefix: string;
    CodeDigits: Integer;
    Value: string;
    ValueDigits: Integer;
    Decimals: Integer;
  end;
  TCleaverScaleLabelLayouts = array of TCleaverScaleLabelLayout;

  TCleaverWeighingAnswer = record
    /// '' when the weighing was applied; PENDING_APPROVAL when the customer is asked (D42).
    State: string;
    WeighingId: string;
    Deadline: string;
  end;

  TCleaverCut = record
    Id: string;
    Name: string;
    SpiceId: string;
    SpiceName: string;
  end;

  TCleaverProduct = record
    Id: string;
    PdvExternalId: string;
    Name: string;
    Price: Double;
    UnitCode: string;
    Status: string;
    ScaleCode: string;
    Cuts: array of TCleaverCut;
  end;

  TCleaverMerchant = record
    Id: string;
    Status: string;
    Products: array of TCleaverProduct;
    Json: ICleaverJson;
  end;

  TCleaverRequestLogEntry = record
    RequestId: string;
    At: string;
    Method: string;
    Path: string;
    Status: Integer;
    DurationMs: Double;
    ErrorTitle: string;
    /// Failed requests only: the body (secrets redacted), at most 2 KB.
    RequestBody: string;
  end;

  TCleaverRequestLogPage = record
    Items: array of TCleaverRequestLogEntry;
    /// The Before of the next (older) page, or '' when there is none.
    Next: string;
  end;

  /// One client per thread: it keeps its token and settings unguarded.
  TCleaverClient = class
  private
    FBaseUrl, FClientId, FClientSecret: string;
    FToken: string;
    FTokenExpiresAt: Int64;
    FTokenRequests: Integer;
    FRenewBeforeSeconds: Integer;
    FMaxAttempts: Integer;
    FBaseDelayMs: Integer;
    FTimeoutMs: Integer;
    FClock: TCleaverClock;
    FAnsweringOrderId: string;
    function Exchange(const Method, Path, Authorization, Body: string; Idempotent: Boolean;
      out Repeated: Boolean): TCleaverHttpAnswer;
    function RequestToken: string;
    /// A protected call: bearer token; on 401 one new token and one resend (spec 5.1.4). When an
    /// earlier attempt's connection broke after the request went out, RepeatDone decides whether
    /// the error answer to the repeat means the first attempt did the work.
    function Authorized(const Method, Path, Body: string; Idempotent: Boolean;
      RepeatDone: TCleaverHttpAnswerCheck = nil): TCleaverHttpAnswer;
    function AlreadyDone(const Answer: TCleaverHttpAnswer): Boolean;
    function CancellationAccepted(const Answer: TCleaverHttpAnswer): Boolean;
    function CancellationDenied(const Answer: TCleaverHttpAnswer): Boolean;
    procedure Fail(const Method, Path: string; const Answer: TCleaverHttpAnswer);
    function OrderPath(const OrderId, Action: string): string;
    procedure LifecycleAction(const OrderId, Action, Body: string);
  public
    constructor Create(const BaseUrl, ClientId, ClientSecret: string);

    /// The access token in use (requested, or renewed when it nears expiry).
    function AccessToken: string;
    /// Forget the token: the next call requests a new one.
    procedure DropToken;

    /// D3: this key's pending events, oldest first (at most 100); empty on 204. EventTypes
    /// filters (the others stay pending); empty means all.
    function PollEvents(const EventTypes: array of string): TCleaverEventArray;
    /// Spec 4.13: acknowledge events already processed and persisted, as polled (their type
    /// unchanged), in batches of ACK_BATCH_LIMIT. Resent safely.
    procedure AcknowledgeEvents(const Events: array of TCleaverEvent);

    /// Spec 4.6.
    function GetOrder(const OrderId: string): TCleaverOrder;
    /// Spec 4.7. CreatedAt '' means now (UTC); PreparationTime < 0 leaves it out.
    procedure Confirm(const OrderId, OrderExternalCode: string; PreparationTime: Integer = -1;
      const CreatedAt: string = '');
    /// Open Delivery's "preparation started".
    procedure Preparing(const OrderId: string);
    /// D6.
    procedure ReadyForPickup(const OrderId: string);
    /// D6 (`POST …/dispatch`; named so as not to hide TObject.Dispatch); TrackingJson is an optional deliveryTrackingInfo object as JSON (spec 4.12).
    procedure DispatchOrder(const OrderId: string; const TrackingJson: string = '');
    /// Open Delivery's "customer picked up" on a TAKEOUT order.
    procedure PickedUp(const OrderId: string);
    /// D6.
    procedure Delivered(const OrderId: string);
    /// Spec 4.8: Code is one of spec 4.10's codes; Mode AUTO or MANUAL. Watch for CANCELLED.
    procedure RequestCancellation(const OrderId, Reason, Code: string; const Mode: string = 'MANUAL');
    /// Spec 4.9: the answer to ORDER_CANCELLATION_REQUEST.
    procedure AcceptCancellation(const OrderId: string);
    /// Spec 4.10: the order stays active.
    procedure DenyCancellation(const OrderId, Reason, Code: string);
    /// Spec 4.12: TrackingJson is the deliveryTrackingInfo object as JSON.
    procedure Tracking(const OrderId, TrackingJson: string);
    /// Spec 4.11: True when the code is the order's; False on 400 `Invalid code provided`
    /// (do not hand the order over).
    function ValidateCode(const OrderId, DeliveryCode: string): Boolean;
    /// Open Delivery's PATCH …/details: when preparation should start (ISO time).
    procedure UpdateDetails(const OrderId, PreparationStartDateTime: string);
    /// D38, D41: weighed lines by index, each with a quantity or a scale label. A 400 names the
    /// line's field (`items[0].label`…) and nothing is applied.
    function Weigh(const OrderId: string; const Lines: array of TCleaverWeighedLine): TCleaverWeighingAnswer;

    /// D41: the merchant's label layouts, tried in order (the first whose prefix matches is used).
    function SetScaleLabelLayouts(const Layouts: array of TCleaverScaleLabelLayout): TCleaverScaleLabelLayouts;
    function GetScaleLabelLayouts: TCleaverScaleLabelLayouts;

    /// Spec 4.5: the merchant's catalog as published, products with their cuts (D37).
    function GetMerchant: TCleaverMerchant;
    /// This key's request log, newest first (Limit 1–1000; Status 0 = any; Before = Next of
    /// the previous page).
    function ListRequests(Limit: Integer = 50; FailedOnly: Boolean = False; Status: Integer = 0;
      const Before: string = ''): TCleaverRequestLogPage;
    /// Sandbox only: the code the sandbox's customer tells the courier, for ValidateCode.
    function SandboxCustomerDeliveryCode(const OrderId: string): string;

    property ClientId: string read FClientId;
    property BaseUrl: string read FBaseUrl;
    /// How many POST /oauth/token requests this client made.
    property TokenRequestCount: Integer read FTokenRequests;
    /// Renew the token this long before it expires (default 300 s).
    property RenewBeforeSeconds: Integer read FRenewBeforeSeconds write FRenewBeforeSeconds;
    /// Attempts per request including the first (default 5).
    property MaxAttempts: Integer read FMaxAttempts write FMaxAttempts;
    /// First backoff delay (default 500 ms), doubled per attempt, at most 30 s.
    property BaseDelayMs: Integer read FBaseDelayMs write FBaseDelayMs;
    /// Per-attempt timeout (default 30 s).
    property TimeoutMs: Integer read FTimeoutMs write FTimeoutMs;
    property Clock: TCleaverClock read FClock write FClock;
  end;

function WeighedQuantity(Index: Integer; Quantity: Double): TCleaverWeighedLine;
function WeighedLabel(Index: Integer; const ScaleLabel: string): TCleaverWeighedLine;
function ScaleLabelLayout(const Prefix: string; CodeDigits: Integer; const Value: string; ValueDigits,
  Decimals: Integer): TCleaverScaleLabelLayout;
/// A number as JSON writes it ('.' decimal point, no exponent for ordinary values).
function JsonNumber(Value: Double): string;
/// '.' as the decimal point, as JSON and the service write numbers.
function JsonFormatSettings: TFormatSettings;
/// A path segment or query value, percent-encoded.
function UrlEncode(const S: string): string;

implementation

var
  JsonFormat: TFormatSettings;

function WeighedQuantity(Index: Integer; Quantity: Double): TCleaverWeighedLine;
begin
  Result.Index := Index;
  Result.Quantity := Quantity;
  Result.ScaleLabel := '';
end;

function WeighedLabel(Index: Integer; const ScaleLabel: string): TCleaverWeighedLine;
begin
  Result.Index := Index;
  Result.Quantity := 0;
  Result.ScaleLabel := ScaleLabel;
end;

function ScaleLabelLayout(const Prefix: string; CodeDigits: Integer; const Value: string; ValueDigits,
  Decimals: Integer): TCleaverScaleLabelLayout;
begin
  Result.Prefix := Prefix;
  Result.CodeDigits := CodeDigits;
  Result.Value := Value;
  Result.ValueDigits := ValueDigits;
  Result.Decimals := Decimals;
end;

function JsonNumber(Value: Double): string;
begin
  Result := FloatToStrF(Value, ffGeneral, 15, 0, JsonFormat);
end;

function JsonFormatSettings: TFormatSettings;
begin
  Result := JsonFormat;
end;

function UrlEncode(const S: string): string;
const
  Hex: array[0..15] of Char = ('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F');
var
  Bytes: TBytes;
  I: Integer;
  B: Byte;
begin
  Result := '';
  Bytes := Utf8Bytes(S);
  for I := 0 to Length(Bytes) - 1 do
  begin
    B := Bytes[I];
    if B in [Ord('A')..Ord('Z'), Ord('a')..Ord('z'), Ord('0')..Ord('9'), Ord('-'), Ord('_'), Ord('.'), Ord('~')] then
      Result := Result + Char(B)
    else
      Result := Result + '%' + Hex[B shr 4] + Hex[B and 15];
  end;
end;

function PriceOf(const Json: ICleaverJson; const Name: string): TCleaverPrice;
var
  P: ICleaverJson;
begin
  P := Json.Field(Name);
  if (P <> nil) and (P.Kind = jkObject) then
  begin
    Result.Value := P.Num('value');
    Result.Currency := P.Str('currency');
  end
  else
  begin
    Result.Value := 0;
    Result.Currency := '';
  end;
end;

function ErrorTitle(const Body: string; Status: Integer): string;
var
  Json: ICleaverJson;
begin
  Result := '';
  if Body <> '' then
    try
      Json := ParseJson(Body);
      if Json.Kind = jkObject then
      begin
        Result := Json.Str('title');
        if Result = '' then Result := Json.Str('message');
      end;
    except
      on ECleaverJsonError do
        if Length(Body) < 200 then Result := Body;
    end;
  if Result = '' then Result := 'HTTP ' + IntToStr(Status);
end;

constructor TCleaverClient.Create(const BaseUrl, ClientId, ClientSecret: string);
begin
  inherited Create;
  FBaseUrl := BaseUrl;
  while (FBaseUrl <> '') and (FBaseUrl[Length(FBaseUrl)] = '/') do
    SetLength(FBaseUrl, Length(FBaseUrl) - 1);
  FClientId := ClientId;
  FClientSecret := ClientSecret;
  FRenewBeforeSeconds := 300;
  FMaxAttempts := 5;
  FBaseDelayMs := 500;
  FTimeoutMs := 30000;
  FClock := MonotonicMs;
end;

function TCleaverClient.Exchange(const Method, Path, Authorization, Body: string; Idempotent: Boolean;
  out Repeated: Boolean): TCleaverHttpAnswer;
var
  Attempt, Delay, RetryAfterSec: Integer;
  NeverSent: Boolean;
begin
  Repeated := False;
  Attempt := 1;
  while True do
  begin
    try
      Result := HttpExchange(Method, FBaseUrl + Path, Authorization, Body, FTimeoutMs, NeverSent);
    except
      on E: ECleaverNetworkError do
      begin
        // Resend only what cannot do harm: a request that never left, or one safe to repeat.
        if (not (NeverSent or Idempotent)) or (Attempt >= FMaxAttempts) then raise;
        if not NeverSent then Repeated := True;
        Delay := FBaseDelayMs shl (Attempt - 1);
        if Delay > 30000 then Delay := 30000;
        SleepMs(Delay div 2 + Random(Delay div 2 + 1));
        Inc(Attempt);
        Continue;
      end;
    end;
    if ((Result.Status <> 429) and (Result.Status <> 503)) or (Attempt >= FMaxAttempts) then Exit;
    // 429 and 503 mean the server did not act: any request may be sent again, after the
    // server's own estimate when it gave one.
    RetryAfterSec := StrToIntDef(Trim(Result.RetryAfter), -1);
    if RetryAfterSec > 120 then Exit;
    if RetryAfterSec >= 0 then
      Delay := RetryAfterSec * 1000 + Random(FBaseDelayMs + 1)
    else
    begin
      Delay := FBaseDelayMs shl (Attempt - 1);
      if Delay > 30000 then Delay := 30000;
      Delay := Delay div 2 + Random(Delay div 2 + 1);
    end;
    SleepMs(Delay);
    Inc(Attempt);
  end;
end;

procedure TCleaverClient.Fail(const Method, Path: string; const Answer: TCleaverHttpAnswer);
var
  Title: string;
begin
  Title := ErrorTitle(Answer.Body, Answer.Status);
  if (Answer.Status = 401) or (Answer.Status = 403) then
    raise ECleaverAuthError.CreateAnswer(Answer.Status, Title, Method, Path, Answer.Body);
  raise ECleaverApiError.CreateAnswer(Answer.Status, Title, Method, Path, Answer.Body);
end;

function TCleaverClient.RequestToken: string;
var
  Answer: TCleaverHttpAnswer;
  Repeated: Boolean;
  Started: Int64;
  Json: ICleaverJson;
begin
  Inc(FTokenRequests);
  Started := FClock;
  Answer := Exchange('POST', '/oauth/token', '',
    '{"client_id":' + JsonQuote(FClientId) + ',"client_secret":' + JsonQuote(FClientSecret) +
    ',"grant_type":"client_credentials"}', True, Repeated);
  if Answer.Status <> 200 then Fail('POST', '/oauth/token', Answer);
  Json := ParseJson(Answer.Body);
  FToken := Json.Str('access_token');
  // Counted from when we asked, so that the time the answer took never makes us late.
  FTokenExpiresAt := Started + Round(Json.Num('expires_in') * 1000);
  Result := FToken;
end;

function TCleaverClient.AccessToken: string;
begin
  if (FToken <> '') and (FClock < FTokenExpiresAt - Int64(FRenewBeforeSeconds) * 1000) then
    Result := FToken
  else
    Result := RequestToken;
end;

procedure TCleaverClient.DropToken;
begin
  FToken := '';
end;

function TCleaverClient.Authorized(const Method, Path, Body: string; Idempotent: Boolean;
  RepeatDone: TCleaverHttpAnswerCheck): TCleaverHttpAnswer;
var
  Repeated, AgainRepeated: Boolean;
begin
  Result := Exchange(Method, Path, 'Bearer ' + AccessToken, Body, Idempotent, Repeated);
  if Result.Status = 401 then
  begin
    // One new token and one resend (spec 5.1.4); never a retry with the same token.
    FToken := '';
    Result := Exchange(Method, Path, 'Bearer ' + AccessToken, Body, Idempotent, AgainRepeated);
    Repeated := Repeated or AgainRepeated;
    if Result.Status = 401 then FToken := '';
  end;
  if (Result.Status >= 200) and (Result.Status < 300) then Exit;
  // A repeat (the first attempt's connection broke after it went out) refused as already done:
  // the first attempt did the work.
  if Repeated and Assigned(RepeatDone) and RepeatDone(Result) then Exit;
  Fail(Method, Path, Result);
end;

function RefusedAs(const Answer: TCleaverHttpAnswer; const Title: string): Boolean;
begin
  Result := ((Answer.Status = 400) or (Answer.Status = 422)) and (ErrorTitle(Answer.Body, Answer.Status) = Title);
end;

function TCleaverClient.AlreadyDone(const Answer: TCleaverHttpAnswer): Boolean;
begin
  Result := RefusedAs(Answer, ALREADY_DONE_TITLE);
end;

// "No request to answer" alone cannot tell "my first attempt answered it" from "it was answered
// otherwise": the order's last event can.
function TCleaverClient.CancellationAccepted(const Answer: TCleaverHttpAnswer): Boolean;
begin
  Result := RefusedAs(Answer, NO_REQUEST_TITLE) and (GetOrder(FAnsweringOrderId).LastEvent = EVENT_CANCELLED);
end;

function TCleaverClient.CancellationDenied(const Answer: TCleaverHttpAnswer): Boolean;
begin
  Result := RefusedAs(Answer, NO_REQUEST_TITLE) and (GetOrder(FAnsweringOrderId).LastEvent = EVENT_CANCELLED_DENIED);
end;

function TCleaverClient.OrderPath(const OrderId, Action: string): string;
begin
  Result := '/v1/orders/' + UrlEncode(OrderId);
  if Action <> '' then Result := Result + '/' + Action;
end;

procedure TCleaverClient.LifecycleAction(const OrderId, Action, Body: string);
begin
  Authorized('POST', OrderPath(OrderId, Action), Body, True, AlreadyDone);
end;

function TCleaverClient.PollEvents(const EventTypes: array of string): TCleaverEventArray;
var
  Path: string;
  I: Integer;
  Answer: TCleaverHttpAnswer;
  Json: ICleaverJson;
begin
  Result := nil;
  Path := '/v1/events:polling';
  for I := 0 to High(EventTypes) do
  begin
    if I = 0 then Path := Path + '?' else Path := Path + '&';
    Path := Path + 'eventType=' + UrlEncode(EventTypes[I]);
  end;
  Answer := Authorized('GET', Path, '', True);
  if (Answer.Status = 204) or (Answer.Body = '') then Exit;
  Json := ParseJson(Answer.Body);
  SetLength(Result, Json.Count);
  for I := 0 to Json.Count - 1 do
    Result[I] := EventFromJson(Json.Item(I));
end;

procedure TCleaverClient.AcknowledgeEvents(const Events: array of TCleaverEvent);
var
  Start, I: Integer;
  Body: string;
begin
  Start := 0;
  while Start < Length(Events) do
  begin
    Body := '[';
    for I := Start to Start + ACK_BATCH_LIMIT - 1 do
    begin
      if I > High(Events) then Break;
      if I > Start then Body := Body + ',';
      // Values exactly as polled (spec 4.13 rule 4): the type is never changed.
      Body := Body + '{"id":' + JsonQuote(Events[I].EventId) + ',"orderId":' + JsonQuote(Events[I].OrderId) +
        ',"eventType":' + JsonQuote(Events[I].EventType) + '}';
    end;
    Body := Body + ']';
    Authorized('POST', '/v1/events/acknowledgment', Body, True);
    Inc(Start, ACK_BATCH_LIMIT);
  end;
end;

function TCleaverClient.GetOrder(const OrderId: string): TCleaverOrder;
var
  Json, Items, Item, Options, Adjustment, Customer: ICleaverJson;
  I: Integer;
begin
  Json := ParseJson(Authorized('GET', OrderPath(OrderId, ''), '', True).Body);
  Result.Json := Json;
  Result.Id := Json.Str('id');
  Result.DisplayId := Json.Str('displayId');
  Result.OrderType := Json.Str('type');
  Result.LastEvent := Json.Str('lastEvent');
  Result.CreatedAt := Json.Str('createdAt');
  Customer := Json.Field('customer');
  if Customer <> nil then Result.CustomerName := Customer.Str('name') else Result.CustomerName := '';
  Items := Json.Field('items');
  Result.Items := nil;
  if Items <> nil then
  begin
    SetLength(Result.Items, Items.Count);
    for I := 0 to Items.Count - 1 do
    begin
      Item := Items.Item(I);
      Result.Items[I].Index := I;
      Result.Items[I].Id := Item.Str('id');
      Result.Items[I].Name := Item.Str('name');
      Result.Items[I].ExternalCode := Item.Str('externalCode');
      Result.Items[I].UnitCode := Item.Str('unit');
      Result.Items[I].Quantity := Item.Num('quantity');
      Result.Items[I].OrderedQuantity := Item.Num('orderedQuantity');
      Result.Items[I].UnitPrice := PriceOf(Item, 'unitPrice');
      Result.Items[I].TotalPrice := PriceOf(Item, 'totalPrice');
      Result.Items[I].ScaleLabel := Item.Str('scaleLabel');
      Options := Item.Field('options');
      if (Options <> nil) and (Options.Count > 0) then
      begin
        Result.Items[I].CutId := Options.Item(0).Str('id');
        Result.Items[I].CutName := Options.Item(0).Str('name');
      end
      else
      begin
        Result.Items[I].CutId := '';
        Result.Items[I].CutName := '';
      end;
    end;
  end;
  if Json.Field('total') <> nil then
  begin
    Result.ItemsPrice := PriceOf(Json.Field('total'), 'itemsPrice');
    Result.OrderAmount := PriceOf(Json.Field('total'), 'orderAmount');
  end;
  Adjustment := Json.Field('weighingAdjustment');
  Result.HasWeighingAdjustment := (Adjustment <> nil) and (Adjustment.Kind = jkObject);
  Result.WeighingAdjustment := PriceOf(Json, 'weighingAdjustment');
end;

procedure TCleaverClient.Confirm(const OrderId, OrderExternalCode: string; PreparationTime: Integer;
  const CreatedAt: string);
var
  Body, At: string;
begin
  if CreatedAt = '' then At := UtcNowIso else At := CreatedAt;
  Body := '{"createdAt":' + JsonQuote(At) + ',"orderExternalCode":' + JsonQuote(OrderExternalCode);
  if PreparationTime >= 0 then Body := Body + ',"preparationTime":' + IntToStr(PreparationTime);
  LifecycleAction(OrderId, 'confirm', Body + '}');
end;

procedure TCleaverClient.Preparing(const OrderId: string);
begin
  LifecycleAction(OrderId, 'preparing', '');
end;

procedure TCleaverClient.ReadyForPickup(const OrderId: string);
begin
  LifecycleAction(OrderId, 'readyForPickup', '');
end;

procedure TCleaverClient.DispatchOrder(const OrderId: string; const TrackingJson: string);
begin
  if TrackingJson = '' then
    LifecycleAction(OrderId, 'dispatch', '')
  else
    LifecycleAction(OrderId, 'dispatch', '{"deliveryTrackingInfo":' + TrackingJson + '}');
end;

procedure TCleaverClient.PickedUp(const OrderId: string);
begin
  LifecycleAction(OrderId, 'pickedUp', '');
end;

procedure TCleaverClient.Delivered(const OrderId: string);
begin
  LifecycleAction(OrderId, 'delivered', '');
end;

procedure TCleaverClient.RequestCancellation(const OrderId, Reason, Code, Mode: string);
begin
  LifecycleAction(OrderId, 'requestCancellation',
    '{"reason":' + JsonQuote(Reason) + ',"code":' + JsonQuote(Code) + ',"mode":' + JsonQuote(Mode) + '}');
end;

procedure TCleaverClient.AcceptCancellation(const OrderId: string);
begin
  FAnsweringOrderId := OrderId;
  Authorized('POST', OrderPath(OrderId, 'acceptCancellation'), '', True, CancellationAccepted);
end;

procedure TCleaverClient.DenyCancellation(const OrderId, Reason, Code: string);
begin
  FAnsweringOrderId := OrderId;
  Authorized('POST', OrderPath(OrderId, 'denyCancellation'),
    '{"reason":' + JsonQuote(Reason) + ',"code":' + JsonQuote(Code) + '}', True, CancellationDenied);
end;

procedure TCleaverClient.Tracking(const OrderId, TrackingJson: string);
begin
  Authorized('POST', OrderPath(OrderId, 'tracking'), '{"deliveryTrackingInfo":' + TrackingJson + '}', True);
end;

function TCleaverClient.ValidateCode(const OrderId, DeliveryCode: string): Boolean;
begin
  // A check that changes nothing: resent freely.
  try
    Authorized('POST', OrderPath(OrderId, 'validateCode'), '{"deliveryCode":' + JsonQuote(DeliveryCode) + '}', True);
    Result := True;
  except
    on E: ECleaverApiError do
      if (E.Status = 400) and (E.Title = 'Invalid code provided') then Result := False else raise;
  end;
end;

procedure TCleaverClient.UpdateDetails(const OrderId, PreparationStartDateTime: string);
begin
  Authorized('PATCH', OrderPath(OrderId, 'details'),
    '{"preparationStartDateTime":' + JsonQuote(PreparationStartDateTime) + '}', True);
end;

function TCleaverClient.Weigh(const OrderId: string; const Lines: array of TCleaverWeighedLine): TCleaverWeighingAnswer;
var
  Body: string;
  I: Integer;
  Answer: TCleaverHttpAnswer;
  Json: ICleaverJson;
begin
  Body := '{"items":[';
  for I := 0 to High(Lines) do
  begin
    if I > 0 then Body := Body + ',';
    Body := Body + '{"index":' + IntToStr(Lines[I].Index);
    if Lines[I].ScaleLabel <> '' then
      Body := Body + ',"label":' + JsonQuote(Lines[I].ScaleLabel) + '}'
    else
      Body := Body + ',"quantity":' + JsonNumber(Lines[I].Quantity) + '}';
  end;
  Body := Body + ']}';
  // Weighing the same lines again replaces the earlier weights: resent freely.
  Answer := Authorized('POST', OrderPath(OrderId, 'weighing'), Body, True);
  Result.State := '';
  Result.WeighingId := '';
  Result.Deadline := '';
  if Answer.Body <> '' then
  begin
    Json := ParseJson(Answer.Body);
    if Json.Kind = jkObject then
    begin
      Result.State := Json.Str('state');
      Result.WeighingId := Json.Str('weighingId');
      Result.Deadline := Json.Str('deadline');
    end;
  end;
end;

function LayoutsFromJson(const Json: ICleaverJson): TCleaverScaleLabelLayouts;
var
  I: Integer;
  Item: ICleaverJson;
begin
  Result := nil;
  SetLength(Result, Json.Count);
  for I := 0 to Json.Count - 1 do
  begin
    Item := Json.Item(I);
    Result[I].Prefix := Item.Str('prefix');
    Result[I].CodeDigits := Round(Item.Num('codeDigits'));
    Result[I].Value := Item.Str('value');
    Result[I].ValueDigits := Round(Item.Num('valueDigits'));
    Result[I].Decimals := Round(Item.Num('decimals'));
  end;
end;

function TCleaverClient.SetScaleLabelLayouts(const Layouts: array of TCleaverScaleLabelLayout): TCleaverScaleLabelLayouts;
var
  Body: string;
  I: Integer;
begin
  Body := '[';
  for I := 0 to High(Layouts) do
  begin
    if I > 0 then Body := Body + ',';
    Body := Body + '{"prefix":' + JsonQuote(Layouts[I].Prefix) + ',"codeDigits":' + IntToStr(Layouts[I].CodeDigits) +
      ',"value":' + JsonQuote(Layouts[I].Value) + ',"valueDigits":' + IntToStr(Layouts[I].ValueDigits) +
      ',"decimals":' + IntToStr(Layouts[I].Decimals) + '}';
  end;
  // Setting the same layouts again changes nothing: resent freely.
  Result := LayoutsFromJson(ParseJson(Authorized('PUT', '/v1/merchant/scaleLabelLayouts', Body + ']', True).Body));
end;

function TCleaverClient.GetScaleLabelLayouts: TCleaverScaleLabelLayouts;
begin
  Result := LayoutsFromJson(ParseJson(Authorized('GET', '/v1/merchant/scaleLabelLayouts', '', True).Body));
end;

function TCleaverClient.GetMerchant: TCleaverMerchant;
var
  Json, Products, Product, Cuts, Cut, Spice: ICleaverJson;
  I, J: Integer;
begin
  Json := ParseJson(Authorized('GET', '/v1/merchant', '', True).Body);
  Result.Json := Json;
  Result.Id := Json.Str('id');
  Result.Status := Json.Str('status');
  Result.Products := nil;
  Products := Json.Field('products');
  if Products = nil then Exit;
  SetLength(Result.Products, Products.Count);
  for I := 0 to Products.Count - 1 do
  begin
    Product := Products.Item(I);
    Result.Products[I].Id := Product.Str('id');
    Result.Products[I].PdvExternalId := Product.Str('pdv_external_id');
    Result.Products[I].Name := Product.Str('name');
    Result.Products[I].Price := Product.Num('price');
    Result.Products[I].UnitCode := Product.Str('unit');
    Result.Products[I].Status := Product.Str('status');
    Result.Products[I].ScaleCode := Product.Str('scaleCode');
    Result.Products[I].Cuts := nil;
    Cuts := Product.Field('cuts');
    if Cuts = nil then Continue;
    SetLength(Result.Products[I].Cuts, Cuts.Count);
    for J := 0 to Cuts.Count - 1 do
    begin
      Cut := Cuts.Item(J);
      Result.Products[I].Cuts[J].Id := Cut.Str('id');
      Result.Products[I].Cuts[J].Name := Cut.Str('name');
      Spice := Cut.Field('spice');
      if (Spice <> nil) and (Spice.Kind = jkObject) then
      begin
        Result.Products[I].Cuts[J].SpiceId := Spice.Str('id');
        Result.Products[I].Cuts[J].SpiceName := Spice.Str('name');
      end
      else
      begin
        Result.Products[I].Cuts[J].SpiceId := '';
        Result.Products[I].Cuts[J].SpiceName := '';
      end;
    end;
  end;
end;

function TCleaverClient.ListRequests(Limit: Integer; FailedOnly: Boolean; Status: Integer;
  const Before: string): TCleaverRequestLogPage;
var
  Path: string;
  Json, Items, Entry: ICleaverJson;
  I: Integer;
begin
  Path := '/v1/developer/requests?limit=' + IntToStr(Limit);
  if FailedOnly then Path := Path + '&failed=true';
  if Status > 0 then Path := Path + '&status=' + IntToStr(Status);
  if Before <> '' then Path := Path + '&before=' + UrlEncode(Before);
  Json := ParseJson(Authorized('GET', Path, '', True).Body);
  Result.Next := Json.Str('next');
  Result.Items := nil;
  Items := Json.Field('items');
  if Items = nil then Exit;
  SetLength(Result.Items, Items.Count);
  for I := 0 to Items.Count - 1 do
  begin
    Entry := Items.Item(I);
    Result.Items[I].RequestId := Entry.Str('requestId');
    Result.Items[I].At := Entry.Str('at');
    Result.Items[I].Method := Entry.Str('method');
    Result.Items[I].Path := Entry.Str('path');
    Result.Items[I].Status := Round(Entry.Num('status'));
    Result.Items[I].DurationMs := Entry.Num('durationMs');
    Result.Items[I].ErrorTitle := Entry.Str('errorTitle');
    Result.Items[I].RequestBody := Entry.Str('requestBody');
  end;
end;

function TCleaverClient.SandboxCustomerDeliveryCode(const OrderId: string): string;
begin
  Result := ParseJson(Authorized('GET', '/v1/sandbox/orders/' + UrlEncode(OrderId) + '/customerDeliveryCode',
    '', True).Body).Str('customerDeliveryCode');
end;

initialization
  JsonFormat := FormatSettings;
  JsonFormat.DecimalSeparator := '.';
  JsonFormat.ThousandSeparator := #0;
  Randomize;
end.
