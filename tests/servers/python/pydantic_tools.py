# Test MCP server whose tools take and return Pydantic models, so their schemas exercise nesting, enums, formats and constraints.
"""A small MCP server built on the official `mcp` Python SDK (2.x, `MCPServer`).

Its tools are deliberately typed with rich Pydantic models so that the JSON
Schemas they advertise (inputSchema and, where a tool returns a model,
outputSchema) cover what a schema-driven form has to handle: nested models,
optional fields, literals, enums, lists of models, string-keyed maps,
date/datetime formats, defaults and numeric/string constraints.

Every tool really works on its inputs and returns deterministic results, so
end-to-end tests may call them.

Usage:
    python3 tests/servers/python/pydantic_tools.py                      # stdio (default)
    python3 tests/servers/python/pydantic_tools.py streamable-http --port 8765
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime, timedelta
from enum import Enum
from typing import Annotated, Literal, Optional

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

import loopback

server = MCPServer(
    name="python-pydantic",
    title="Pydantic tools",
    instructions="Test server whose tools use Pydantic models for inputs and outputs.",
    version="1.0.0",
)


# --------------------------------------------------------------------------
# Shared models
# --------------------------------------------------------------------------


class Priority(str, Enum):
    """How urgent something is."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"
    URGENT = "urgent"


class Address(BaseModel):
    """A postal address."""

    street: str = Field(..., min_length=1, description="Street and house number")
    city: str = Field(..., min_length=1, description="City or town")
    postal_code: Optional[str] = Field(None, max_length=12, description="Postal or ZIP code")
    country: str = Field(
        "US",
        pattern=r"^[A-Z]{2}$",
        description="ISO 3166-1 alpha-2 country code",
    )


class Location(BaseModel):
    """Where an event takes place; a venue with an address, or an online link."""

    venue: str = Field(..., min_length=1, max_length=120, description="Name of the venue or room")
    address: Address | None = Field(None, description="Postal address, for in-person events")
    online_url: str | None = Field(None, description="Meeting link, for online events")


class Attendee(BaseModel):
    """Someone invited to an event."""

    name: str = Field(..., min_length=1, max_length=80, description="Full name")
    email: str = Field(
        ...,
        pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$",
        description="Email address the invitation is sent to",
    )
    role: Literal["organizer", "required", "optional"] = Field(
        "required", description="How the attendee takes part"
    )


# --------------------------------------------------------------------------
# Tool 1: schedule_event (nested models, list[Model], Enum, datetime, structured output)
# --------------------------------------------------------------------------


class EventRequest(BaseModel):
    """The event to put on the calendar."""

    title: str = Field(..., min_length=3, max_length=100, description="Short title shown in calendars")
    starts_at: datetime = Field(..., description="Start time (ISO 8601, with timezone if known)")
    duration_minutes: int = Field(60, ge=5, le=1440, description="Length of the event in minutes")
    location: Location = Field(..., description="Where the event happens")
    attendees: list[Attendee] = Field(default_factory=list, description="People to invite")
    priority: Priority = Field(Priority.NORMAL, description="How important the event is")
    tags: list[str] = Field(default_factory=list, max_length=10, description="Free-form labels")


class ScheduledEvent(BaseModel):
    """The event as it was scheduled."""

    event_id: str = Field(..., description="Stable identifier derived from title and start time")
    title: str
    starts_at: datetime
    ends_at: datetime
    invitations_sent: int = Field(..., ge=0, description="How many attendees were invited")
    organizer: Attendee | None = Field(None, description="The attendee with the organizer role, if any")
    priority: Priority
    where: str = Field(..., description="Human-readable summary of the location")


@server.tool()
def schedule_event(event: EventRequest, notify: bool = True) -> ScheduledEvent:
    """Schedule a calendar event with a location and attendees, and return the scheduled event."""
    ends_at = event.starts_at + timedelta(minutes=event.duration_minutes)
    digest = hashlib.sha256(f"{event.title}|{event.starts_at.isoformat()}".encode()).hexdigest()
    organizer = next((a for a in event.attendees if a.role == "organizer"), None)
    loc = event.location
    if loc.address is not None:
        where = f"{loc.venue}, {loc.address.street}, {loc.address.city} ({loc.address.country})"
    elif loc.online_url:
        where = f"{loc.venue} ({loc.online_url})"
    else:
        where = loc.venue
    return ScheduledEvent(
        event_id=f"evt_{digest[:12]}",
        title=event.title,
        starts_at=event.starts_at,
        ends_at=ends_at,
        invitations_sent=len(event.attendees) if notify else 0,
        organizer=organizer,
        priority=event.priority,
        where=where,
    )


# --------------------------------------------------------------------------
# Tool 2: summarize_inventory (list[Model], dict[str, int], Enum, pattern, structured output)
# --------------------------------------------------------------------------


class Category(str, Enum):
    """Product category."""

    HARDWARE = "hardware"
    SOFTWARE = "software"
    ACCESSORY = "accessory"
    SERVICE = "service"


class InventoryItem(BaseModel):
    """One stock-keeping unit."""

    sku: str = Field(..., pattern=r"^[A-Z]{3}-\d{4}$", description="Stock-keeping unit, e.g. ABC-1234")
    name: str = Field(..., min_length=1, description="Product name")
    category: Category = Field(..., description="Product category")
    quantity: int = Field(..., ge=0, le=1_000_000, description="Units in stock")
    unit_price: float = Field(..., ge=0, description="Price of one unit")


class InventorySummary(BaseModel):
    """Totals over the submitted inventory."""

    item_count: int = Field(..., description="Number of distinct SKUs")
    total_units: int = Field(..., description="Units in stock across all SKUs")
    total_value: float = Field(..., description="Sum of quantity times unit price")
    units_by_category: dict[str, int] = Field(..., description="Units in stock per category")
    low_stock: list[str] = Field(..., description="SKUs whose quantity is below the threshold")
    warehouse_total: int = Field(..., description="Sum of the per-warehouse counts given")


@server.tool()
def summarize_inventory(
    items: Annotated[list[InventoryItem], Field(min_length=1, description="Items to summarize")],
    warehouse_counts: Annotated[
        dict[str, int],
        Field(default_factory=dict, description="Units held per warehouse, keyed by warehouse code"),
    ],
    low_stock_threshold: Annotated[int, Field(ge=0, le=1000, description="Quantity below which an item is low on stock")] = 5,
) -> InventorySummary:
    """Compute stock totals, value and low-stock SKUs for a list of inventory items."""
    by_category: dict[str, int] = {}
    for item in items:
        by_category[item.category.value] = by_category.get(item.category.value, 0) + item.quantity
    return InventorySummary(
        item_count=len(items),
        total_units=sum(i.quantity for i in items),
        total_value=round(sum(i.quantity * i.unit_price for i in items), 2),
        units_by_category=by_category,
        low_stock=[i.sku for i in items if i.quantity < low_stock_threshold],
        warehouse_total=sum(warehouse_counts.values()),
    )


# --------------------------------------------------------------------------
# Tool 3: search_orders (Optional, Literal, date, nested filter model, structured output)
# --------------------------------------------------------------------------

OrderStatus = Literal["pending", "paid", "shipped", "delivered", "cancelled"]


class Order(BaseModel):
    """An order in the demo store."""

    order_id: str
    customer_email: str
    status: OrderStatus
    placed_on: date
    total: float
    shipping: Address


_ORDERS: list[Order] = [
    Order(
        order_id="ORD-1001",
        customer_email="ada@example.com",
        status="delivered",
        placed_on=date(2025, 1, 14),
        total=129.99,
        shipping=Address(street="12 Analytical Way", city="London", postal_code="N1 9GU", country="GB"),
    ),
    Order(
        order_id="ORD-1002",
        customer_email="grace@example.com",
        status="shipped",
        placed_on=date(2025, 3, 2),
        total=42.5,
        shipping=Address(street="1 Compiler Ct", city="Arlington", postal_code="22201", country="US"),
    ),
    Order(
        order_id="ORD-1003",
        customer_email="ada@example.com",
        status="pending",
        placed_on=date(2025, 6, 30),
        total=15.0,
        shipping=Address(street="12 Analytical Way", city="London", postal_code="N1 9GU", country="GB"),
    ),
    Order(
        order_id="ORD-1004",
        customer_email="linus@example.com",
        status="cancelled",
        placed_on=date(2025, 7, 21),
        total=310.0,
        shipping=Address(street="5 Kernel Rd", city="Portland", postal_code="97201", country="US"),
    ),
]


class OrderFilter(BaseModel):
    """Criteria an order must meet; fields left empty are not applied."""

    status: Optional[OrderStatus] = Field(None, description="Only orders in this status")
    customer_email: Optional[str] = Field(None, description="Only orders placed by this customer")
    placed_after: date | None = Field(None, description="Only orders placed on or after this date")
    placed_before: date | None = Field(None, description="Only orders placed on or before this date")
    min_total: float | None = Field(None, ge=0, description="Only orders whose total is at least this")
    country: str | None = Field(None, pattern=r"^[A-Z]{2}$", description="Only orders shipped to this country")


class OrderSearchResult(BaseModel):
    """Orders matching a search."""

    matched: int = Field(..., description="How many orders matched before the limit was applied")
    orders: list[Order] = Field(..., description="The matching orders, newest first")


@server.tool()
def search_orders(
    filters: OrderFilter,
    sort: Literal["newest", "oldest", "largest"] = "newest",
    limit: Annotated[int, Field(ge=1, le=50, description="Maximum number of orders to return")] = 10,
) -> OrderSearchResult:
    """Search the demo store's orders by status, customer, date range, total and destination."""
    found = [
        o
        for o in _ORDERS
        if (filters.status is None or o.status == filters.status)
        and (filters.customer_email is None or o.customer_email == filters.customer_email)
        and (filters.placed_after is None or o.placed_on >= filters.placed_after)
        and (filters.placed_before is None or o.placed_on <= filters.placed_before)
        and (filters.min_total is None or o.total >= filters.min_total)
        and (filters.country is None or o.shipping.country == filters.country)
    ]
    if sort == "newest":
        found.sort(key=lambda o: o.placed_on, reverse=True)
    elif sort == "oldest":
        found.sort(key=lambda o: o.placed_on)
    else:
        found.sort(key=lambda o: o.total, reverse=True)
    return OrderSearchResult(matched=len(found), orders=found[:limit])


# --------------------------------------------------------------------------
# Tool 4: plan_trip (date, dict[str, int], nested model with defaults, Enum, unstructured text output)
# --------------------------------------------------------------------------


class TravelClass(str, Enum):
    """Cabin or ticket class."""

    ECONOMY = "economy"
    PREMIUM = "premium"
    BUSINESS = "business"


class Traveler(BaseModel):
    """One person on the trip."""

    name: str = Field(..., min_length=1, description="Traveler's name")
    age: int = Field(..., ge=0, le=120, description="Age in years")
    passport_country: Optional[str] = Field(None, pattern=r"^[A-Z]{2}$", description="Passport issuing country")


class TripRequest(BaseModel):
    """What the trip should look like."""

    destination: str = Field(..., min_length=2, max_length=80, description="City or region to visit")
    departure: date = Field(..., description="Day of departure")
    return_date: date = Field(..., description="Day of return")
    travelers: list[Traveler] = Field(..., min_length=1, max_length=9, description="Who is travelling")
    travel_class: TravelClass = Field(TravelClass.ECONOMY, description="Preferred ticket class")
    interests: dict[str, int] = Field(
        default_factory=dict,
        description="Interest weights from 0 to 10, keyed by activity (e.g. museums, hiking)",
    )
    budget_per_day: float = Field(150.0, gt=0, le=10_000, description="Budget per person per day")


@server.tool()
def plan_trip(request: TripRequest) -> str:
    """Draft a short day-by-day itinerary and cost estimate for a trip."""
    days = (request.return_date - request.departure).days + 1
    if days < 1:
        return "The return date is before the departure date; nothing to plan."
    multiplier = {TravelClass.ECONOMY: 1.0, TravelClass.PREMIUM: 1.4, TravelClass.BUSINESS: 2.2}[request.travel_class]
    cost = round(days * len(request.travelers) * request.budget_per_day * multiplier, 2)
    ranked = sorted(request.interests.items(), key=lambda kv: (-kv[1], kv[0])) or [("sightseeing", 5)]
    lines = [
        f"Trip to {request.destination}: {days} day(s), {len(request.travelers)} traveler(s), "
        f"{request.travel_class.value} class, estimated cost {cost:.2f}."
    ]
    for i in range(days):
        day = request.departure + timedelta(days=i)
        activity = ranked[i % len(ranked)][0]
        lines.append(f"{day.isoformat()}: {activity}")
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Tool 5: convert_temperature (scalar args, Enum, float output wrapped in an outputSchema)
# --------------------------------------------------------------------------


class TemperatureUnit(str, Enum):
    """Unit of temperature."""

    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"
    KELVIN = "kelvin"


def _to_kelvin(value: float, unit: TemperatureUnit) -> float:
    if unit is TemperatureUnit.CELSIUS:
        return value + 273.15
    if unit is TemperatureUnit.FAHRENHEIT:
        return (value - 32) * 5 / 9 + 273.15
    return value


def _from_kelvin(value: float, unit: TemperatureUnit) -> float:
    if unit is TemperatureUnit.CELSIUS:
        return value - 273.15
    if unit is TemperatureUnit.FAHRENHEIT:
        return (value - 273.15) * 9 / 5 + 32
    return value


@server.tool()
def convert_temperature(
    value: Annotated[float, Field(ge=-459.67, le=1_000_000, description="Temperature to convert")],
    from_unit: TemperatureUnit,
    to_unit: TemperatureUnit = TemperatureUnit.CELSIUS,
    decimals: Annotated[int, Field(ge=0, le=6, description="Digits after the decimal point")] = 2,
) -> float:
    """Convert a temperature between Celsius, Fahrenheit and Kelvin."""
    kelvin = _to_kelvin(value, from_unit)
    if kelvin < 0:
        raise ValueError("temperature is below absolute zero")
    return round(_from_kelvin(kelvin, to_unit), decimals)


# --------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------


def main() -> None:
    parser = loopback.arguments("Pydantic-typed test MCP server.")
    parser.add_argument(
        "--require-bearer",
        metavar="TOKEN",
        help="streamable-http: refuse requests without 'Authorization: Bearer TOKEN' (401)",
    )
    args = parser.parse_args()
    token = args.require_bearer
    loopback.run(server, args, (lambda app: require_bearer(app, token)) if token else (lambda app: app))


def require_bearer(app, token: str):
    """Wraps an ASGI app so that every HTTP request must carry the bearer token."""
    expected = f"Bearer {token}".encode()

    async def guarded(scope, receive, send):
        if scope["type"] == "http" and dict(scope.get("headers", [])).get(b"authorization") != expected:
            await send({
                "type": "http.response.start",
                "status": 401,
                "headers": [(b"www-authenticate", b'Bearer realm="mcp-playground-tests"'), (b"content-type", b"text/plain")],
            })
            await send({"type": "http.response.body", "body": b"missing or wrong bearer token"})
            return
        await app(scope, receive, send)

    return guarded


if __name__ == "__main__":
    main()
