"""Geofences for delivery vehicles: circular zones around depots."""
import math
import os
from dataclasses import dataclass

EARTH_RADIUS_M = 6371000.0


@dataclass(frozen=True)
class Zone:
    name: str
    lat: float
    lon: float
    radius_m: float


class GeofenceError(ValueError):
    pass


def _check(lat, lon):
    if not -90 <= lat <= 90 or not -180 <= lon <= 180:
        raise GeofenceError("coordinates out of range: %r, %r" % (lat, lon))


def distance_m(lat1, lon1, lat2, lon2):
    """Great-circle distance in metres (haversine)."""
    dlat = lat2 - lat1
    dlon = lon2 - lon1
    a = math.sin(dlat / 2) ** 2 + math.cos(math.radians(lat1)) * math.cos(math.radians(lat2)) * math.sin(dlon / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(a)))


def inside_zone(zone, lat, lon):
    _check(lat, lon)
    return distance_m(zone.lat, zone.lon, lat, lon) <= zone.radius_m


def zones_for(zones, lat, lon):
    """Names of the zones containing a position, nearest first."""
    hits = [(distance_m(z.lat, z.lon, lat, lon), z.name) for z in zones if inside_zone(z, lat, lon)]
    return [name for _, name in sorted(hits)]


def transitions(zone, track):
    """Yield ("enter"|"exit", index) events along a list of (lat, lon) fixes."""
    inside = None
    for index, (lat, lon) in enumerate(track):
        now_inside = inside_zone(zone, lat, lon)
        if inside is not None and now_inside != inside:
            yield ("enter" if now_inside else "exit", index)
        inside = now_inside
